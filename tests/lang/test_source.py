"""Code and comments split line by line: strings and comments never read as code."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.lang import source
from gate.lang.lines import Source

Reader = Callable[[str, str], Source | None]


def code_lines(path: str, text: str, read: Reader = source.split) -> dict[int, str]:
    parsed = read(path, text)
    assert parsed is not None
    return {n: line.code.strip() for n, line in parsed.lines.items() if line.code.strip()}


def test_python_strings_docstrings_and_comments_are_blanked() -> None:
    text = ('x = "pytest.mark.skip"  # noqa\n@pytest.mark.skip\ndef f():\n'
            '    """it.skip\n    more"""\n')
    parsed = source.split("t.py", text)
    assert parsed is not None and parsed.parsed
    assert code_lines("t.py", text) == {1: "x =", 2: "@pytest.mark.skip", 3: "def f():"}
    assert parsed.lines[1].comment == "# noqa"


def test_python_form_feed_does_not_shift_lines() -> None:
    text = 'x = 1\x0c\ny = "@pytest.mark.skip"\nz = 2\n'
    assert code_lines("t.py", text) == {1: "x = 1", 2: "y =", 3: "z = 2"}


def test_python_that_does_not_tokenize_is_kept_raw() -> None:
    parsed = source.split("t.py", 'x = """never closed\n')
    assert parsed is not None and not parsed.parsed
    assert parsed.lines[1].code == 'x = """never closed'


@pytest.mark.parametrize("read", [source.split, source.lex], ids=["tree-sitter", "lexer"])
def test_javascript_strings_templates_and_comments(read: Reader) -> None:
    text = 'const a = "it.skip(";  // it.only\nit.skip(`x\n${y}`, () => {}); /* fit\n */ xit("a")\n'
    assert code_lines("a.test.js", text, read) == {
        1: "const a =           ;", 2: "it.skip(", 3: ", () => {});", 4: "xit(   )"}


@pytest.mark.parametrize("read", [source.split, source.lex], ids=["tree-sitter", "lexer"])
def test_rust_lifetimes_are_not_strings(read: Reader) -> None:
    text = "fn f<'a>(x: &'a str) { let c = '\"'; } // #[ignore]\n#[ignore]\nfn g() {}\n"
    lines = code_lines("lib.rs", text, read)
    assert lines[1] == "fn f<'a>(x: &'a str) { let c =    ; }"
    assert lines[2] == "#[ignore]"


@pytest.mark.parametrize("path", ["README.md", "data.json", "Makefile"])
def test_unknown_languages_are_not_read(path: str) -> None:
    assert source.split(path, "it.skip()\n") is None


@pytest.mark.parametrize(("path", "text", "expected"), [
    ("a_test.go", "package a\n\nvar s = `t.Skip(\n`  // t.Skip()\nvar r = 'x'\n",
     {1: "package a", 3: "var s =", 5: "var r ="}),
    ("ATest.java", 'class A {\n  String s = """\n    @Disabled\n    """; // @Ignore\n}\n',
     {1: "class A {", 2: "String s =", 4: ";", 5: "}"}),
    ("a_spec.rb", "x = <<~EOS\n  xit 'a'\nEOS\n# skip\ny = %w[skip pending]\n",
     {1: "x = <<~EOS", 5: "y ="}),
    ("a.ts", "const a = b as any; // as any\nconst c = /it\\.only\\(/;\n",
     {1: "const a = b as any;", 2: "const c = " + " " * len("/it\\.only\\(/") + ";"}),
    ("a.tsx", "const e = <div title=\"it.only(\">{x}</div>;\n",
     {1: 'const e = <div title=' + ' ' * len('"it.only("') + '>{x}</div>;'}),
])
def test_grammars_blank_literals_and_comments(path: str, text: str,
                                              expected: dict[int, str]) -> None:
    parsed = source.split(path, text)
    assert parsed is not None and parsed.parsed
    assert code_lines(path, text) == expected


def test_comment_text_is_kept_per_line() -> None:
    parsed = source.split("a.ts", "f(); // @ts-ignore\n/* eslint-disable\n  no-console */\n")
    assert parsed is not None
    assert [parsed.lines[n].comment for n in (1, 2, 3)] == [
        "// @ts-ignore", "/* eslint-disable", "  no-console */"]


def test_file_with_a_syntax_error_falls_back_to_the_lexer() -> None:
    parsed = source.split("a.test.js", "it('a', () => {\nconst s = 'it.only(';\n")
    assert parsed is not None and not parsed.parsed and parsed.lexed
    assert parsed.lines[2].code == "const s =           ;"


def test_python_that_does_not_tokenize_is_raw_text() -> None:
    parsed = source.split("t.py", 'x = """\n@pytest.mark.skip\n')
    assert parsed is not None and not parsed.parsed and not parsed.lexed
