package calc;

import org.junit.jupiter.api.Test;

/** Not a test: @Test void inComment() {} */
class CalculatorTest {
    private final String text = "@Test void inString() {}";

    @Test
    void addsTwoNumbers() {
        int[] values = {1, 2};
    }

    @ParameterizedTest(name = "{0} is positive")
    @ValueSource(ints = {1, 2})
    public void isPositive(int value) {}

    @Nested
    class WhenEmpty {
        @org.junit.jupiter.api.Test
        void returnsZero() {}
    }

    void helper() {}
}
