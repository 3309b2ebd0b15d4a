"""Type and lint escapes per language, as data rows: which files, code or comment, what it silences.

A comment escape is matched in a line's comment text, a code escape in its code with strings and
comments blanked (gate.lang.source), so an escape quoted in a string is never taken for one.
Comment directives are matched only where the tool honours them: at the start of a comment
(`# noqa`, `// @ts-ignore`, `/* eslint-disable */`), not in the middle of prose.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
from typing import Literal

from gate.lang.languages import JAVASCRIPT_FAMILY, extensions

Where = Literal["code", "comment"]

PYTHON = extensions("python")
JAVASCRIPT = JAVASCRIPT_FAMILY
TYPESCRIPT = extensions("typescript", "tsx")
RUST = extensions("rust")
GO = extensions("go")
JAVA = extensions("java")
KOTLIN = extensions("kotlin")
# what a coverage pragma silences; in a test file it hides only the test's own lines
COVERAGE = "coverage measurement of this code"


@dataclasses.dataclass(frozen=True)
class EscapePattern:
    rule: str  # the escape as a reviewer would name it: "type: ignore"
    extensions: tuple[str, ...]
    where: Where
    pattern: re.Pattern[str]
    silences: str  # what the escape turns off


def _hash_directive(body: str) -> re.Pattern[str]:
    """A directive in a `#` comment: `# type: ignore`, also after another comment on the line;
    not one quoted in the comment's prose (``# drop the "# type: ignore" once ...``)."""
    return re.compile(r"(?<![\"'`])#\s*" + body, re.IGNORECASE)


def _checker_directive(body: str) -> re.Pattern[str]:
    """A type checker's directive, as the checkers read it: at the start of a comment (mypy),
    or after a `#` inside one (pyright), followed by a code list, a space, another comment
    (`# type: ignore#x`: mypy honours it) or the line's end; not one quoted in the comment's
    prose (``# `f() -> int:  # type: ignore` over ...``)."""
    return re.compile(r"(?<![\"'`])#\s*" + body + r"(?=[\[\s#]|$)", re.IGNORECASE)


def _slash_directive(body: str) -> re.Pattern[str]:
    """A directive at the start of a `//` or `/* */` comment, or of a line in a block comment."""
    return re.compile(r"(?:^|//|/\*)[\s/*]*" + body)


ROWS: tuple[EscapePattern, ...] = (
    EscapePattern("type: ignore", PYTHON, "comment", _checker_directive(r"type:\s*ignore"),
                  "the type checker (mypy, pyright) on this line"),
    EscapePattern("noqa", PYTHON, "comment", _hash_directive(r"noqa\b"),
                  "the linter (ruff, flake8) on this line"),
    EscapePattern("ruff: noqa", PYTHON, "comment", _hash_directive(r"ruff\s*:\s*noqa\b"),
                  "ruff for the whole file"),
    EscapePattern("pyright: ignore", PYTHON, "comment",
                  _checker_directive(r"pyright:\s*ignore"),
                  "pyright on this line"),
    EscapePattern("mypy: ignore-errors", PYTHON, "comment",
                  _hash_directive(r"mypy:\s*ignore-errors\b"), "mypy for the whole file"),
    EscapePattern("mypy: disable-error-code", PYTHON, "comment",
                  _hash_directive(r"mypy:\s*disable-error-code\b"),
                  "mypy error codes for the whole file"),
    EscapePattern("pylint: disable", PYTHON, "comment", _hash_directive(r"pylint:\s*disable"),
                  "pylint checks"),
    EscapePattern("pragma: no cover", PYTHON, "comment",
                  _hash_directive(r"pragma:\s*no\s*cover\b"), COVERAGE),
    EscapePattern("as any", TYPESCRIPT, "code", re.compile(r"\bas\s+any\b"),
                  "TypeScript's type checking of this expression"),
    EscapePattern("@ts-ignore", JAVASCRIPT, "comment", _slash_directive(r"@ts-ignore\b"),
                  "the TypeScript error on the next line"),
    EscapePattern("@ts-expect-error", JAVASCRIPT, "comment",
                  _slash_directive(r"@ts-expect-error\b"), "the TypeScript error on the next line"),
    EscapePattern("@ts-nocheck", JAVASCRIPT, "comment", _slash_directive(r"@ts-nocheck\b"),
                  "TypeScript checking for the whole file"),
    EscapePattern("eslint-disable", JAVASCRIPT, "comment",
                  _slash_directive(r"eslint-disable(?:-next-line|-line)?\b"), "ESLint rules"),
    EscapePattern("biome-ignore", JAVASCRIPT, "comment", _slash_directive(r"biome-ignore\b"),
                  "Biome lint rules"),
    EscapePattern("istanbul ignore", JAVASCRIPT, "comment",
                  _slash_directive(r"istanbul\s+ignore\b"), COVERAGE),
    EscapePattern("c8 ignore", JAVASCRIPT, "comment", _slash_directive(r"c8\s+ignore\b"),
                  COVERAGE),
    EscapePattern("#[allow]", RUST, "code", re.compile(r"#\s*\[\s*allow\s*\((?:[^)]*\)\s*\])?"),
                  "compiler and clippy lints on this item"),
    EscapePattern("#![allow]", RUST, "code",
                  re.compile(r"#\s*!\s*\[\s*allow\s*\((?:[^)]*\)\s*\])?"),
                  "compiler and clippy lints for the whole module or crate"),
    EscapePattern("nolint", GO, "comment", re.compile(r"//\s*nolint\b"),
                  "golangci-lint linters on this line"),
    EscapePattern("@SuppressWarnings", JAVA, "code",
                  re.compile(r"@(?:java\.lang\.)?SuppressWarnings\b(?:\s*\([^)]*\)?)?"),
                  "compiler and static-analysis warnings on this declaration"),
    EscapePattern("@Suppress", KOTLIN, "code",
                  re.compile(r"@(?:kotlin\.)?Suppress\b(?:\([^)]*\)?)?"),
                  "compiler and static-analysis warnings on this declaration"),
)


# The word (lower case) that every match of a row contains: a line without it holds no such
# escape, so a file whose added lines hold none of its rows' words needs no parsing.
WORDS: dict[str, str] = {
    "type: ignore": "type", "noqa": "noqa", "ruff: noqa": "noqa", "pyright: ignore": "pyright",
    "mypy: ignore-errors": "mypy", "mypy: disable-error-code": "mypy",
    "pylint: disable": "pylint", "pragma: no cover": "pragma", "as any": "any",
    "@ts-ignore": "@ts-", "@ts-expect-error": "@ts-", "@ts-nocheck": "@ts-",
    "eslint-disable": "eslint-disable", "biome-ignore": "biome-ignore",
    "istanbul ignore": "istanbul", "c8 ignore": "c8", "#[allow]": "allow", "#![allow]": "allow",
    "nolint": "nolint", "@SuppressWarnings": "suppress", "@Suppress": "suppress",
}


@functools.cache
def _words(extension: str) -> re.Pattern[str]:
    words = [WORDS[row.rule] for row in rows_for("f" + extension)]
    return re.compile("|".join(map(re.escape, words)) or "(?!)", re.IGNORECASE)


def words_for(path: str) -> re.Pattern[str]:
    """The words an escape in `path` must contain (case-insensitively)."""
    return _words(os.path.splitext(path)[1].lower())


def rows_for(path: str) -> tuple[EscapePattern, ...]:
    """The escape rows that apply to `path`, by its extension."""
    lowered = path.lower()
    return tuple(row for row in ROWS if lowered.endswith(row.extensions))


# The directive with the rules or codes it names, per rule: `type: ignore[a, b]` names {a, b};
# without a list it silences everything (None).
_SCOPES: dict[str, re.Pattern[str]] = {
    "type: ignore": re.compile(r"#\s*type:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I),
    "pyright: ignore": re.compile(r"#\s*pyright:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I),
    "noqa": re.compile(r"#\s*noqa(?:\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
                       re.I),
    "pylint: disable": re.compile(r"#\s*pylint:\s*disable(?:-next)?\s*=\s*(?P<codes>[\w\s,-]+)"),
    "mypy: disable-error-code": re.compile(
        r"#\s*mypy:\s*disable-error-code\s*=?\s*['\"]?(?P<codes>[\w\s,-]+)"),
    "eslint-disable": re.compile(
        r"eslint-disable(?:-next-line|-line)?(?P<codes>(?:(?!--|\*/)[^\n])*)"),
    "nolint": re.compile(r"//\s*nolint(?::(?P<codes>[\w,-]+))?"),
    "#[allow]": re.compile(r"#\s*\[\s*allow\s*\((?P<codes>[^)]*)\)\s*\]"),
    "#![allow]": re.compile(r"#\s*!\s*\[\s*allow\s*\((?P<codes>[^)]*)\)\s*\]"),
    "biome-ignore": re.compile(r"biome-ignore\s+(?P<codes>[\w/-]+)"),
}


@dataclasses.dataclass(frozen=True)
class Directive:
    rest: str  # the line without the directive, whitespace collapsed: what it applies to
    codes: frozenset[str] | None  # the rules it silences; None: all of them


def directive(rule: str, line: str) -> Directive | None:
    """The escape `rule` as written on a raw line; None when the line does not hold it."""
    pattern = _SCOPES.get(rule) or next((r.pattern for r in ROWS if r.rule == rule), None)
    m = pattern.search(line) if pattern is not None else None
    if m is None:
        return None
    named = m.groupdict().get("codes")
    codes = frozenset(c for c in re.split(r"[\s,]+", named or "") if c) or None
    rest = " ".join((line[:m.start()] + " " + line[m.end():]).split())
    return Directive(rest, codes)


def no_wider(base: Directive, head: Directive) -> bool:
    """Whether `head` silences no more than `base` did on the same line: the same escape, the
    same or fewer rules (a rule renamed inside the list counts as the same rule)."""
    if base.rest != head.rest:
        return False
    if base.codes is None:
        return True
    return head.codes is not None and len(head.codes) <= len(base.codes)
