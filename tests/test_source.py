"""Code and comments split line by line: strings and comments never read as code."""
from __future__ import annotations

import pytest

from gate import source


def code_lines(path: str, text: str) -> dict[int, str]:
    parsed = source.split(path, text)
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


def test_javascript_strings_templates_and_comments() -> None:
    text = 'const a = "it.skip(";  // it.only\nit.skip(`x\n${y}`, () => {}) /* fit\n */ xit("a")\n'
    assert code_lines("a.test.js", text) == {
        1: "const a =           ;", 2: "it.skip(", 3: ", () => {})", 4: "xit(   )"}


def test_rust_lifetimes_are_not_strings() -> None:
    text = "fn f<'a>(x: &'a str) { let c = '\"'; } // #[ignore]\n#[ignore]\n"
    lines = code_lines("lib.rs", text)
    assert lines[1] == "fn f<'a>(x: &'a str) { let c =    ; }"
    assert lines[2] == "#[ignore]"


@pytest.mark.parametrize("path", ["README.md", "data.json", "Makefile"])
def test_unknown_languages_are_not_read(path: str) -> None:
    assert source.split(path, "it.skip()\n") is None
