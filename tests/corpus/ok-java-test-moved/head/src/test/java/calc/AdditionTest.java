package calc;

class CalculatorTest2 {}
