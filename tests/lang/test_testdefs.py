from __future__ import annotations

import pytest

from gate.lang.testdefs import extract


def names(path: str, text: str) -> list[tuple[str, int]]:
    found = extract(path, text)
    assert found.error is None
    return [(d.name, d.line) for d in found.defs]


def test_python_functions_classes_and_testcase_subclasses() -> None:
    text = (
        "import unittest\n"                           # 1
        "def test_a(): pass\n"                        # 2
        "def helper(): pass\n"                        # 3
        "class TestX:\n"                              # 4
        "    def test_y(self): pass\n"                # 5
        "    def setup_method(self): pass\n"          # 6
        "    class TestInner:\n"                      # 7
        "        def test_z(self): pass\n"            # 8
        "class Base(unittest.TestCase):\n"            # 9
        "    def test_b(self): pass\n"                # 10
        "class Derived(Base):\n"                      # 11
        "    def test_c(self): pass\n"                # 12
        "class Plain:\n"                              # 13
        "    def test_not_collected(self): pass\n"    # 14
        "async def test_async(): pass\n"              # 15
        "def outer():\n"                              # 16
        "    def test_nested(): pass\n"               # 17
    )
    assert names("tests/test_m.py", text) == [
        ("test_a", 2), ("TestX.test_y", 5), ("TestX.TestInner.test_z", 8),
        ("Base.test_b", 10), ("Derived.test_c", 12), ("test_async", 15),
    ]


def test_python_bare_testcase_base_and_redefinition_keeps_the_last() -> None:
    text = (
        "from unittest import TestCase\n"
        "class Checks(TestCase):\n"
        "    def test_one(self): pass\n"
        "def test_dup(): pass\n"
        "def test_dup(): pass\n"
    )
    assert names("t_test.py", text) == [("Checks.test_one", 3), ("test_dup", 5)]


def test_python_syntax_error_is_reported_not_raised() -> None:
    found = extract("tests/test_m.py", "def test_a(:\n    pass\n")
    assert found.defs == ()
    assert found.error is not None
    assert found.error.startswith("SyntaxError at line 1")


def test_javascript_titles_with_enclosing_describes() -> None:
    text = (
        'describe("outer", () => {\n'                       # 1
        "  it('a (b)', () => { foo(\")\") });\n"           # 2
        "  // it('commented out', () => {})\n"              # 3
        "  describe.only(`inner`, function () {\n"          # 4
        '    test.skip("b", async () => {});\n'             # 5
        "  });\n"                                           # 6
        '  it("c", () => {});\n'                            # 7
        "});\n"                                             # 8
        "test('top', () => {});\n"                          # 9
        "process.exit(0); submit('x');\n"                   # 10
    )
    assert names("src/a.test.ts", text) == [
        ("outer > a (b)", 2), ("outer > inner > b", 5), ("outer > c", 7), ("top", 9),
    ]


def test_javascript_names_bound_to_it_or_describe_define_tests_too() -> None:
    """`var itIf = cond ? it : it.skip` then `itIf('title', fn)` (jshttp/http-errors does
    this by Node version): a test definition, not a removed test."""
    text = (
        "var itUtilIsError = typeof util.isError === 'function'\n"   # 1
        "  ? it\n"                                                    # 2
        "  : it.skip\n"                                               # 3
        "const describeSlow = process.env.SLOW ? describe : describe.skip;\n"  # 4
        "let mixed = x ? it : describe\n"                             # 5
        "var count = 1\n"                                             # 6
        "var later = y ? it : it.only\n"                              # 7
        "describeSlow('slow', () => {\n"                              # 8
        "  itUtilIsError('should support util.isError()', () => {})\n"  # 9
        "  mixed('not read', () => {})\n"                             # 10
        "  count('nor this', () => {})\n"                             # 11
        "})\n"                                                        # 12
        "later('focused', () => {})\n"                                # 13
    )
    assert names("test/test.js", text) == [
        ("slow > should support util.isError()", 9), ("focused", 13)]


def test_go_tests_need_testing_t_and_an_exported_suffix() -> None:
    text = (
        "package a\n"
        "func TestA(t *testing.T) {}\n"
        "func Testlower(t *testing.T) {}\n"
        "func TestMain(m *testing.M) {}\n"
        "// func TestCommented(t *testing.T) {}\n"
        "func TestB(tt *testing.T) {\n"
        "}\n"
        "func helper(t *testing.T) {}\n"
    )
    assert names("a_test.go", text) == [("TestA", 2), ("TestB", 6)]


def test_rust_test_attributes_with_others_between() -> None:
    text = (
        "#[cfg(test)]\n"                              # 1
        "mod tests {\n"                               # 2
        "    #[test]\n"                               # 3
        "    fn it_works() {}\n"                      # 4
        "    #[test]\n"                               # 5
        '    #[should_panic(expected = "]")]\n'       # 6
        "    fn panics() {}\n"                        # 7
        "    // #[test]\n"                            # 8
        "    // fn commented() {}\n"                  # 9
        "    #[tokio::test]\n"                        # 10
        "    async fn async_one() {}\n"               # 11
        "    fn helper() {}\n"                        # 12
        "}\n"
    )
    assert names("src/lib.rs", text) == [("it_works", 4), ("panics", 7), ("async_one", 11)]


@pytest.mark.parametrize("path", ["README.md", "src/main.c", "Makefile"])
def test_unread_languages_have_no_definitions(path: str) -> None:
    assert extract(path, "def test_a(): pass\n@Test void testA() {}\n").defs == ()



@pytest.mark.parametrize("path", ["t.test.js", "t.test.ts", "t.test.tsx", "t.test.mjs"])
def test_javascript_titles_after_non_ascii_text_are_found(path: str) -> None:
    # issue 23: comments and strings were blanked byte by byte and titles matched by character,
    # so every test after an em dash was lost (14 false removals in one commit)
    text = ("// parses a URL — with its query\ndescribe('é — ü', () => {\n"
            "  it('keeps “quotes” 🎉', () => {});\n  /* ünïcode */ it('b', () => {});\n});\n"
            "test(`ß ${'x'}`, () => {});\ntest('last', () => {});\n")
    assert names(path, text) == [("é — ü > keeps “quotes” 🎉", 3), ("é — ü > b", 4),
                                 ("ß ${'x'}", 6), ("last", 7)]


def test_ava_modifiers_are_tests() -> None:
    # issue 23: `test` -> `test.serial` read as removals
    text = ("import test from 'ava';\ntest.serial('a', t => t.pass());\n"
            "test.serial.only('b', t => t.pass());\ntest.failing('c', t => t.fail());\n"
            "test.skip('d', t => t.pass());\ntest.todo('e');\ntest.serial.failing('f', t => {});\n"
            "test.before(t => {});\ntest.after.always('g', t => {});\n")
    assert names("test/a.js", text) == [("a", 2), ("b", 3), ("c", 4), ("d", 5), ("e", 6),
                                        ("f", 7)]
