package calc.more;

class CalculatorTest {
    @Test
    void addsTwoNumbers() {}
}
