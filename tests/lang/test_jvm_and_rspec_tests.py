"""Test identity for JUnit (Java, Kotlin) and RSpec, and tests-removed on them."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import Files, found, run_check

from gate.checks import tests_removed
from gate.lang.testdefs import extract
from gate.models import CheckResult


def check(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(tests_removed.run, tmp_path, base, head)


JAVA = """\
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
"""

KOTLIN = """\
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
"""

RSPEC = """\
require "spec_helper"

RSpec.describe Calculator do
  let(:calc) { described_class.new }
  # it "is commented out" do

  describe "#add" do
    it "adds two numbers" do
      expect(calc.add(1, 2)).to eq(3) if calc
      total = if calc then 1 else 2 end
    end

    it 'keeps "quotes" in titles' do
      def helper; end
      while false do end
    end
  end

  context "with negatives" do
    it { is_expected.to be_truthy }
    xit("is pending") { expect(1).to eq(2) }
  end

  it "reads a string that says it 'x' do" do
  end
end
"""


def _names(path: str, text: str) -> list[tuple[str, int]]:
    result = extract(path, text)
    assert result.error is None
    return [(d.name, d.line) for d in result.defs]


def test_java_junit_methods_by_class_and_method() -> None:
    assert _names("src/test/java/calc/CalculatorTest.java", JAVA) == [
        ("CalculatorTest.addsTwoNumbers", 10), ("CalculatorTest.isPositive", 16),
        ("CalculatorTest.WhenEmpty.returnsZero", 21)]


def test_kotlin_junit_functions_with_backtick_names() -> None:
    assert _names("src/test/kotlin/CalculatorTest.kt", KOTLIN) == [
        ("CalculatorTest.adds two numbers", 3), ("CalculatorTest.isPositive", 9)]


def test_rspec_examples_by_group_path_and_title() -> None:
    assert _names("spec/calculator_spec.rb", RSPEC) == [
        ("Calculator > #add > adds two numbers", 8),
        ('Calculator > #add > keeps "quotes" in titles', 13),
        ("Calculator > with negatives > (untitled)", 20),
        ("Calculator > with negatives > is pending", 21),
        ("Calculator > reads a string that says it 'x' do", 24)]


def test_java_test_removed(tmp_path: Path) -> None:
    path = "src/test/java/calc/CalculatorTest.java"
    head = JAVA.replace("    @Test\n    void addsTwoNumbers() {\n        int[] values = {1, 2};\n"
                        "    }\n\n", "")
    result = check(tmp_path, {path: JAVA}, {path: head})
    assert found(result) == [(path, 10, "test-removed")]
    assert result.findings[0].message == (
        "test `CalculatorTest.addsTwoNumbers` was removed (present at base, absent at head)")


def test_kotlin_test_renamed_is_removed_with_the_likely_rename(tmp_path: Path) -> None:
    path = "src/test/kotlin/CalculatorTest.kt"
    head = KOTLIN.replace("`adds two numbers`", "`adds`")
    result = check(tmp_path, {path: KOTLIN}, {path: head})
    assert found(result) == [(path, 3, "test-removed")]
    assert result.findings[0].message.endswith(
        "new in the same file: `CalculatorTest.adds` (a likely rename)")


def test_rspec_example_removed(tmp_path: Path) -> None:
    path = "spec/calculator_spec.rb"
    head = RSPEC.replace('    xit("is pending") { expect(1).to eq(2) }\n', "")
    result = check(tmp_path, {path: RSPEC}, {path: head})
    assert found(result) == [(path, 21, "test-removed")]


def test_honest_jvm_and_rspec_changes_raise_nothing(tmp_path: Path) -> None:
    java, kotlin, spec = ("src/test/java/calc/CalculatorTest.java",
                          "src/test/kotlin/CalculatorTest.kt", "spec/calculator_spec.rb")
    head = {
        # a Java test moved to another test class of the same name, in another file
        java: JAVA.replace("        int[] values = {1, 2};\n", "        int[] values = {3};\n"),
        # Kotlin and RSpec bodies edited, a new example, groups reindented
        kotlin: KOTLIN.replace("assertEquals(3, add(1, 2))", "assertEquals(4, add(2, 2))"),
        spec: RSPEC.replace("  it \"reads", "  it \"is new\" do\n  end\n\n  it \"reads"),
    }
    assert found(check(tmp_path, {java: JAVA, kotlin: KOTLIN, spec: RSPEC}, head)) == []


def test_vendored_and_generated_files_are_not_read_for_tests(tmp_path: Path) -> None:
    vendored, generated = "vendor/lib/spec/lib_spec.rb", "generated/CalculatorTest.java"
    base = {vendored: RSPEC, generated: JAVA, "tests/test_a.py": "def test_a():\n    pass\n"}
    head = {vendored: None, generated: None, "tests/test_a.py": "def test_a():\n    pass\n\n"}
    assert found(check(tmp_path, base, head)) == []


def test_head_cannot_hide_a_removed_test_by_marking_its_file_generated(tmp_path: Path) -> None:
    path = "spec/calculator_spec.rb"
    head = {path: RSPEC.replace('    xit("is pending") { expect(1).to eq(2) }\n', ""),
            ".gitattributes": "spec/** linguist-generated\n"}
    assert found(check(tmp_path, {path: RSPEC}, head)) == [(path, 21, "test-removed")]
