class CalculatorTest {
    @Test
    fun `adds two numbers`() {
        assertEquals(3, add(1, 2))
    }

    // @Test fun commentedOut() {}
    @ParameterizedTest @ValueSource(ints = [1, 2])
    internal fun isPositive(value: Int) {}

    fun helper() = "@Test fun inString()"
}
