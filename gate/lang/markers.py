"""Skip, xfail, focus and todo markers per test framework: one data row each.

Patterns are matched against code whose strings and comments are blanked (`gate.lang.source`), so
they need no guard against quotes. Names are matched as whole words: `(?<![\\w.$])xit\\(` does
not match `process.exit(`. Rows with `tests_only` use a bare word that honest code also uses
(`fit(`, `this.skip()`, Ruby's `pending`) and are matched in test files only.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from typing import Literal

from gate.lang import languages

Kind = Literal["skip", "xfail", "focus", "todo"]
Language = languages.Family

SKIP = "the test it marks no longer runs"
SKIP_IF = "the test it marks does not run when the condition holds"
SKIP_HERE = "the test stops here and is reported as skipped, not failed"
XFAIL = "the test still runs, but its failure no longer fails the suite"
FOCUS = "only the focused tests run; every other test around them is silently left out"
TODO = "a placeholder that is reported as a test but checks nothing"


@dataclasses.dataclass(frozen=True)
class Marker:
    id: str
    language: Language
    pattern: re.Pattern[str]
    kind: Kind
    message: str
    tests_only: bool = False


def _row(id: str, language: Language, regex: str, kind: Kind, why: str,
         tests_only: bool = False) -> Marker:
    return Marker(id, language, re.compile(regex), kind, f"new {kind} marker `{id}`: {why}",
                  tests_only)


_JS = r"(?<![\w.$])"  # not part of a longer name, not a property of something else
# node:test's options object: test(name, { skip: ... }, fn), or test({ skip: ... }, fn)
_NODE_CALL = r"(?<![\w.$])(?:test|it|describe|suite)\s*\(\s*(?:[^,(){}]*,\s*)?\{[^{}]*?\b"
_NOT_FALSE = r"(?!\s*(?:false|0|null|undefined)\b)"
_RB = r"(?<![\w.:@$])"
# pytest's mark through any name it was imported as: pytest.mark, pt.mark, mark
_PYMARK = r"(?<![\w.])(?:[A-Za-z_]\w*\.)?mark\."

# Ordered from most to least specific: where two rows match overlapping text, the first wins.
MARKERS: tuple[Marker, ...] = (
    # pytest
    _row("pytestmark.skip", "python", r"\bpytestmark\s*\+?=.*\bmark\.(?:skip|skipif)\b",
         "skip", "every test in the module no longer runs"),
    _row("pytestmark.xfail", "python", r"\bpytestmark\s*\+?=.*\bmark\.xfail\b", "xfail", XFAIL),
    _row("pytest.mark.skip", "python", _PYMARK + r"skip\b", "skip", SKIP),
    _row("pytest.mark.skipif", "python", _PYMARK + r"skipif\b", "skip",
         SKIP_IF),
    _row("pytest.mark.xfail", "python", _PYMARK + r"xfail\b", "xfail", XFAIL),
    _row("pytest.skip", "python", r"(?<![\w.])pytest\.skip\s*\(", "skip", SKIP_HERE),
    _row("pytest.xfail", "python", r"(?<![\w.])pytest\.xfail\s*\(", "xfail",
         "the test stops here and is reported as an expected failure"),
    _row("pytest.importorskip", "python", r"(?<![\w.])pytest\.importorskip\s*\(", "skip",
         "the tests below are skipped when the module cannot be imported"),
    # unittest
    _row("unittest.skip", "python", r"(?:@\s*|(?<![\w.])unittest\.)skip\b", "skip", SKIP),
    _row("unittest.skipIf", "python", r"(?:@\s*|(?<![\w.])unittest\.)skipIf\b", "skip",
         SKIP_IF),
    _row("unittest.skipUnless", "python", r"(?:@\s*|(?<![\w.])unittest\.)skipUnless\b", "skip",
         "the test it marks no longer runs unless the condition holds"),
    _row("unittest.expectedFailure", "python",
         r"(?:@\s*|(?<![\w.])unittest\.)expectedFailure\b", "xfail", XFAIL),
    _row("unittest.skipTest", "python", r"\b\w+\.skipTest\s*\(", "skip", SKIP_HERE),
    _row("unittest.SkipTest", "python", r"\braise\s+(?:[\w.]+\.)?SkipTest\b", "skip",
         SKIP_HERE),
    # Jest, Vitest, Mocha, Jasmine
    _row("test.skipIf", "js", _JS + r"(?:test|it|describe)\.skipIf\s*\(", "skip", SKIP_IF),
    _row("it.skip", "js", _JS + r"(?:it|specify)\.(?:concurrent\.)?skip\b", "skip", SKIP),
    _row("test.skip", "js", _JS + r"test\.(?:concurrent\.|serial\.)?skip\b", "skip", SKIP),
    _row("describe.skip", "js", _JS + r"(?:describe|context|suite)\.skip\b", "skip",
         "no test in the block runs"),
    _row("xit", "js", _JS + r"xit\s*\(", "skip", SKIP),
    _row("xtest", "js", _JS + r"xtest\s*\(", "skip", SKIP),
    _row("xdescribe", "js", _JS + r"x(?:describe|context)\s*\(", "skip",
         "no test in the block runs"),
    _row("it.only", "js", _JS + r"(?:it|specify)\.(?:concurrent\.)?only\b", "focus", FOCUS),
    _row("test.only", "js", _JS + r"test\.(?:concurrent\.|serial\.)?only\b", "focus", FOCUS),
    _row("describe.only", "js", _JS + r"(?:describe|context|suite)\.only\b", "focus", FOCUS),
    _row("fit", "js", _JS + r"fit\s*\(", "focus", FOCUS, tests_only=True),
    _row("fdescribe", "js", _JS + r"fdescribe\s*\(", "focus", FOCUS),
    _row("it.todo", "js", _JS + r"it\.todo\b", "todo", TODO),
    _row("test.todo", "js", _JS + r"test\.(?:serial\.)?todo\b", "todo", TODO),
    _row("test.fails", "js", _JS + r"(?:test|it)\.fails\b", "xfail", XFAIL),
    # AVA and Jest: `test.failing(...)` passes while it fails
    _row("test.failing", "js", _JS + r"(?:test|it)\.(?:serial\.)?failing\b", "xfail", XFAIL),
    _row("this.skip", "js", r"(?<![\w.$])this\.skip\s*\(", "skip", SKIP_HERE, tests_only=True),
    # node:test
    _row("node:test.skip", "js", _NODE_CALL + r"skip\s*:" + _NOT_FALSE, "skip", SKIP),
    _row("node:test.todo", "js", _NODE_CALL + r"todo\s*:" + _NOT_FALSE, "todo", TODO),
    _row("node:test.only", "js", _NODE_CALL + r"only\s*:\s*true\b", "focus", FOCUS),
    _row("t.skip", "js", r"(?<![\w.$])t\.skip\s*\(", "skip", SKIP_HERE, tests_only=True),
    _row("t.todo", "js", r"(?<![\w.$])t\.todo\s*\(", "todo", TODO, tests_only=True),
    # Go (any receiver; *_test.go only)
    _row("testing.Skip", "go", r"\b\w+\.Skip\s*\(", "skip", SKIP_HERE, tests_only=True),
    _row("testing.Skipf", "go", r"\b\w+\.Skipf\s*\(", "skip", SKIP_HERE, tests_only=True),
    _row("testing.SkipNow", "go", r"\b\w+\.SkipNow\s*\(", "skip", SKIP_HERE, tests_only=True),
    _row("testing.Short", "go", r"(?<![\w.])testing\.Short\s*\(\s*\)", "skip",
         "the test does not run under `go test -short`", tests_only=True),
    # Rust
    _row("rust.ignore", "rust", r"#\[\s*(?:cfg_attr\s*\(.*,\s*)?ignore\b", "skip", SKIP),
    _row("rust.cfg-false", "rust", r"#\[\s*cfg\s*\(\s*(?:any\s*\(\s*\)|FALSE|false)\s*\)\s*\]",
         "skip", "the item under it is never compiled, so its tests never run"),
    # JUnit
    _row("junit.Ignore", "java", r"@(?:org\.junit\.)?Ignore\b", "skip", SKIP),
    _row("junit.Disabled", "java", r"@(?:[\w.]+\.)?Disabled\b", "skip", SKIP),
    _row("junit.DisabledIf", "java", r"@(?:[\w.]+\.)?Disabled\w+\b", "skip", SKIP_IF),
    _row("junit.assumeFalse", "java",
         r"(?<![\w.])(?:Assumptions\.|Assume\.)?assume(?:True\s*\(\s*false|False\s*\(\s*true)"
         r"\s*\)", "skip", SKIP_HERE),
    # RSpec
    _row("rspec.xit", "ruby", _RB + r"x(?:it|specify|example)\b", "skip", SKIP, tests_only=True),
    _row("rspec.xdescribe", "ruby", _RB + r"x(?:describe|context)\b", "skip",
         "no example in the group runs", tests_only=True),
    _row("rspec.fit", "ruby", _RB + r"f(?:it|specify|example|describe|context)\b", "focus",
         FOCUS, tests_only=True),
    _row("rspec.focus", "ruby", r"(?:\bfocus:\s*true\b|(?<![\w:]):focus\b)", "focus", FOCUS,
         tests_only=True),
    _row("rspec.skip", "ruby", _RB + r"skip\b", "skip", SKIP, tests_only=True),
    _row("rspec.pending", "ruby", _RB + r"pending\b", "xfail",
         "the example still runs, but its failure no longer fails the suite",
         tests_only=True),
)


# Words every marker of a language contains: a line without one holds no marker, whatever its
# strings and comments (blanking only removes text), so such a line needs no parsing.
KEYWORDS: dict[Language, tuple[str, ...]] = {
    "python": ("skip", "Skip", "xfail", "expectedFailure"),
    "js": ("skip", "only", "todo", "xit", "xtest", "xdescribe", "xcontext", "fit", "fdescribe",
           "fails", "failing"),
    "go": ("Skip", "Short"),
    "rust": ("ignore", "cfg"),
    "java": ("Ignore", "Disabled", "assume"),
    "ruby": ("xit", "xspecify", "xexample", "xdescribe", "xcontext", "fit", "fspecify",
             "fexample", "fdescribe", "fcontext", "focus", "skip", "pending"),
}


@functools.cache
def _keywords(language: Language) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, KEYWORDS[language])))


def keywords_for(path: str) -> re.Pattern[str] | None:
    """A pattern of the words a marker in `path` must contain; None: no markers in its language."""
    language = language_of(path)
    return None if language is None else _keywords(language)


def language_of(path: str) -> Language | None:
    """The family of test frameworks whose markers apply to the file."""
    language = languages.language_of(path)
    return language.tests if language is not None else None


def for_file(path: str, *, is_test: bool) -> tuple[Marker, ...]:
    """The rows that apply to `path`."""
    language = language_of(path)
    return tuple(m for m in MARKERS
                 if m.language == language and (is_test or not m.tests_only))


@functools.cache
def combined(markers: tuple[Marker, ...]) -> re.Pattern[str]:
    """One pattern that matches where any of `markers` does: a quick test per line."""
    return re.compile("|".join(f"(?:{m.pattern.pattern})" for m in markers) or r"(?!)")


def find(markers: tuple[Marker, ...], code: str) -> Iterator[Marker]:
    """The markers in one line of code; where matches overlap, the earlier row wins."""
    taken: list[tuple[int, int]] = []
    for marker in markers:
        for m in marker.pattern.finditer(code):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            taken.append(m.span())
            yield marker
            break
