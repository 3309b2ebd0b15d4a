"""Test definitions in a source file, by name: what a runner would collect from it.

Python is read with `ast` (module-level `test*` functions; `test*` methods of `Test*` classes
and of `TestCase` subclasses, as "Class.method"). JavaScript and TypeScript `it`/`test` titles,
prefixed with their enclosing `describe` titles; Go `func TestX(t *testing.T)`; Rust `#[test]`
functions; JUnit tests in Java and Kotlin as "Class.method" (`jvm_tests`); RSpec examples with
their group titles (`rspec`). These are matched on code whose strings and comments are blanked by
`source` (tree-sitter grammars where there is one, else a lexer), so a commented-out test is not a
test.
"""
from __future__ import annotations

import ast
import bisect
import dataclasses
import os
import re
from collections.abc import Callable, Iterator

from gate.lang import jvm_tests, rspec, source
from gate.lang.languages import JAVASCRIPT_FAMILY

_MODIFIERS = (r"(?:\.(?:only|skip|todo|concurrent|failing|sequential|fails|serial))*"
              r"(?:\.(?:skipIf|runIf|each)\s*\((?:[^()]|\([^()]*\))*\))?")  # it.skipIf(c)(...)
_JS_CALL = re.compile(
    rf"(?<![\w.$])(?:(?P<suite>[xf]?describe|context|suite){_MODIFIERS}"
    rf"|(?P<test>[xf]?it|[x]?test|specify){_MODIFIERS})\s*\("
)
_JS_FN = rf"(?:(?P<{{0}}suite>[xf]?describe|context|suite)|[xf]?it|[x]?test|specify){_MODIFIERS}"
# `var itIf = cond ? it : it.skip` (or `= it.skip`): a name bound to a runner's test or suite
# function, called as one (`itIf('title', fn)`); the branches must be one kind.
_JS_ALIAS = re.compile(
    r"(?<![\w.$])(?:var|let|const)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*"
    rf"(?:(?P<ternary>(?:(?!\b(?:var|let|const|function)\b)[^;{{}}]){{0,300}}?"
    rf"\?\s*{_JS_FN.format('a')}\s*:\s*{_JS_FN.format('b')})"
    rf"|{_JS_FN.format('c')})\s*(?:;|\n|$)")
_PARENS = re.compile(r"[()]")
_JS_TITLE = re.compile(r"\s*(['\"`])((?:\\.|(?!\1).)*)\1", re.DOTALL)
_GO_TEST = re.compile(r"^func\s+(Test(?:[^\Wa-z]\w*)?)\s*\(\s*\w+\s+\*testing\.T\s*\)", re.M)
_RUST_TEST = re.compile(
    r"#\[\s*(?:\w+::)*test(?:\s*\([^)]*\))?\s*\]"  # #[test], #[tokio::test(flavor = ..)]
    r"(?:\s*#!?\[[^\]]*\])*"  # other attributes between
    r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"fn\s+(\w+)"
)


@dataclasses.dataclass(frozen=True)
class Definition:
    name: str  # the identity: "function", "Class.method", "describe > it title"
    line: int


@dataclasses.dataclass(frozen=True)
class Extraction:
    defs: tuple[Definition, ...]
    error: str | None = None  # why the file could not be read, e.g. a SyntaxError


def extract(path: str, text: str) -> Extraction:
    """The test definitions in `text`; no definitions for a language the gate does not read."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".py":
        return _python(text)
    if ext in JAVASCRIPT_FAMILY:
        return Extraction(tuple(_javascript(path, text)))
    if ext == ".go":
        return Extraction(tuple(_matches(_GO_TEST, path, text)))
    if ext == ".rs":
        return Extraction(tuple(_matches(_RUST_TEST, path, text)))
    if ext in (".java", ".kt"):
        return Extraction(tuple(_found(jvm_tests.tests, path, text)))
    if ext == ".rb":
        return Extraction(tuple(_found(rspec.examples, path, text)))
    return Extraction(())


def _python(text: str) -> Extraction:
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        return Extraction((), error=f"{type(e).__name__} at line {e.lineno}: {e.msg}")
    except ValueError as e:  # null bytes, on older Pythons
        return Extraction((), error=f"ValueError: {e}")
    last: dict[str, int] = {}  # a later definition of the same name replaces the earlier one
    for name, line in _python_defs(tree.body, "", set()):
        last.pop(name, None)
        last[name] = line
    return Extraction(tuple(Definition(n, line) for n, line in last.items()))


def _is_test_class(node: ast.ClassDef, test_classes: set[str]) -> bool:
    if node.name.startswith("Test"):
        return True
    for base in node.bases:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        if name == "TestCase" or name in test_classes:
            return True
    return False


def _python_defs(body: list[ast.stmt], prefix: str,
                 test_classes: set[str]) -> Iterator[tuple[str, int]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test"):
                yield prefix + node.name, node.lineno
        elif isinstance(node, ast.ClassDef) and _is_test_class(node, test_classes):
            if not prefix:
                test_classes.add(node.name)
            yield from _python_defs(node.body, f"{prefix}{node.name}.", test_classes)


def _code(path: str, text: str) -> str:
    """`text` with strings and comments blanked, columns and lines kept."""
    split = source.split(path, text)
    if split is None:
        return text
    return "\n".join(split.lines[i].code if i in split.lines else ""
                     for i in range(1, len(text.split("\n")) + 1))


def _line_of(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _matches(pattern: re.Pattern[str], path: str, text: str) -> Iterator[Definition]:
    code = _code(path, text)
    starts = _line_starts(code)
    for m in pattern.finditer(code):
        yield Definition(m.group(1), _line_of(starts, m.start(1)))


def _found(reader: Callable[[str, str], Iterator[tuple[str, int]]], path: str,
           text: str) -> Iterator[Definition]:
    """The definitions a reader finds in the blanked code, at their lines."""
    code = _code(path, text)
    starts = _line_starts(code)
    for name, offset in reader(code, text):
        yield Definition(name, _line_of(starts, offset))


def _javascript(path: str, text: str) -> Iterator[Definition]:
    """`it`/`test` titles, with the titles of the `describe` blocks they sit in."""
    code = _code(path, text)
    starts = _line_starts(code)
    calls: dict[int, tuple[bool, str]] = {}  # offset of the call's "(" -> (is a suite, title)
    for m in _JS_CALL.finditer(code):
        literal = _JS_TITLE.match(text, m.end())
        if literal is not None:
            calls[m.end() - 1] = (m.group("suite") is not None, literal.group(2))
    for offset, is_suite, title in _alias_calls(code, text):
        calls.setdefault(offset, (is_suite, title))
    suites: list[tuple[str, int]] = []  # (title, paren depth inside its call)
    depth = 0
    for paren in _PARENS.finditer(code):
        offset, char = paren.start(), paren.group()
        if char == "(":
            depth += 1
            call = calls.get(offset)
            if call is None:
                continue
            is_suite, title = call
            if is_suite:
                suites.append((title, depth))
            else:
                name = " > ".join([*(t for t, _ in suites), title])
                yield Definition(name, _line_of(starts, offset))
        elif char == ")":
            depth -= 1
            while suites and suites[-1][1] > depth:
                suites.pop()


def _alias_calls(code: str, text: str) -> Iterator[tuple[int, bool, str]]:
    """Calls of names bound to a test or suite function (`_JS_ALIAS`), by offset of "(",
    whether a suite, and title."""
    aliases: dict[str, bool] = {}
    for m in _JS_ALIAS.finditer(code):
        kinds = ({m.group("asuite") is not None, m.group("bsuite") is not None}
                 if m.group("ternary") is not None else {m.group("csuite") is not None})
        if len(kinds) == 1:
            aliases[m.group("name")] = kinds.pop()
    if not aliases:
        return
    names = "|".join(re.escape(n) for n in sorted(aliases, key=len, reverse=True))
    for m in re.finditer(rf"(?<![\w.$])({names})\s*\(", code):
        literal = _JS_TITLE.match(text, m.end())
        if literal is not None:
            yield m.end() - 1, aliases[m.group(1)], literal.group(2)
