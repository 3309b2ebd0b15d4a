"""Rust production code that asks whether it is built or run for its tests (issue 46: code that
detects the test run, in every language): `cfg!(test)` in an expression; one function given
twice, `#[cfg(test)]` and `#[cfg(not(test))]` (the tests build one body, the program the
other); and the variables of a test run read (`RUST_TEST_THREADS`, `NEXTEST_*`; `CI` is
`ci-env-read`). Outside the file's `#[cfg(test)] mod` items, which are its unit tests. Matched
on code with strings and comments blanked, but for the variable's name, which is a string.

`#[cfg(test)]` on a helper alone, or `#[cfg(not(test))]` on an item alone (a `no_std` crate's
panic handler), is how honest crates build; only the pair swaps what the tests see."""
from __future__ import annotations

import re
from collections.abc import Mapping

from gate.lang import rust_test_modules
from gate.lang.lines import Source

CFG_TEST = re.compile(r"\bcfg\s*!\s*\(\s*test\s*\)")
TEST_RUN_VARIABLES = re.compile(
    r"""\benv\s*::\s*var(?:_os)?\s*\(\s*"(CI|RUST_TEST_\w+|NEXTEST\w*|__CARGO_TEST\w*)"\s*\)""")
# `#[cfg(test)] fn name` or `#[cfg(not(test))] fn name`, other attributes and modifiers between
_CFG_FN = re.compile(
    r"#\s*\[\s*cfg\s*\(\s*(not\s*\(\s*)?test\s*\)?\s*\)\s*\]\s*(?:#\s*\[[^\]]*\]\s*)*"
    r"(?:pub\s*(?:\([^)]*\)\s*)?)?(?:(?:const|async|unsafe|extern\s*(?:\"\w+\"\s*)?)\s+)*"
    r"fn\s+(\w+)")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _in_test_modules(text: str) -> set[int]:
    """The lines of the file's `#[cfg(test)] mod` items."""
    data = text.encode()
    out: set[int] = set()
    for start, end in rust_test_modules.test_modules(data).values():
        first = data.count(b"\n", 0, start) + 1
        out.update(range(first, data.count(b"\n", 0, end) + 2))
    return out


def _swapped(text: str) -> dict[int, str]:
    """The lines of functions given under both `cfg(test)` and `cfg(not(test))`: line ->
    name."""
    sides: dict[str, dict[bool, int]] = {}
    for m in _CFG_FN.finditer(text):
        sides.setdefault(m.group(2), {})[m.group(1) is None] = _line_of(text, m.start())
    return {line: name for name, by in sides.items() if len(by) == 2 for line in by.values()}


def scan(split: Source, text: str, raw: Mapping[int, str]) -> list[tuple[int, str, str]]:
    """(line, rule, message) on the added lines `raw` of a Rust source file `text` (the head's,
    lexed as `split`), outside its unit-test modules."""
    tests = _in_test_modules(text)
    swapped = _swapped(text)
    out = []
    for number in sorted(set(raw) - tests):
        line = split.lines.get(number)
        code = line.code if line is not None and split.lexed else raw[number]
        if CFG_TEST.search(code):
            out.append((number, "test-run-detected", "asks `cfg!(test)` at run time: code "
                        "that behaves differently when tested is not tested"))
        if number in swapped:
            out.append((number, "test-run-detected", f"`{swapped[number]}` is given twice, "
                        "under `cfg(test)` and `cfg(not(test))`: the unit tests build another "
                        "body than the program runs"))
        variable = TEST_RUN_VARIABLES.search(raw[number]) if "env" in code else None
        if variable is not None:
            rule = "ci-env-read" if variable.group(1) == "CI" else "test-run-detected"
            out.append((number, rule, f"reads the variable {variable.group(1)}: code that "
                        "behaves differently when tested is not tested"))
    return out
