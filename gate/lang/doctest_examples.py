"""Python's doctests: the `>>>` examples in a source file's docstrings, and the base's put back
over the head's code (as `rust_test_modules` does for Rust's test modules), so that the base's
examples run on the head's code. A docstring is found by where it is (the module, a class, a
function, by qualified name), and an example is its docstring as a whole."""
from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterable

EXAMPLE = re.compile(r"^\s*>>>", re.MULTILINE)
Docstring = tuple[ast.Constant, ast.AST]  # the string, and the node it documents


def collects_doctests(addopts: str | Iterable[str], command: str) -> bool:
    """Whether a run collects doctests: `--doctest-modules` in pytest's addopts or the test
    command, or a command running `doctest` itself (`python -m doctest`, `--doctest-glob`)."""
    opts = addopts.split() if isinstance(addopts, str) else list(addopts)
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return "--doctest-modules" in opts or any("doctest" in w for w in words)


def _docstrings(tree: ast.Module) -> dict[str, Docstring]:
    """Qualified name ("" for the module) -> its docstring node and what it documents."""
    out: dict[str, Docstring] = {}

    def visit(node: ast.AST, name: str) -> None:
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            out[name] = (body[0].value, node)
        for child in body if isinstance(body, list) else ():
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, f"{name}.{child.name}" if name else child.name)

    visit(tree, "")
    return out


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def examples(text: str) -> dict[str, str]:
    """Qualified name -> the docstring, for each docstring holding an example."""
    tree = _parse(text)
    if tree is None:
        return {}
    return {name: str(node.value) for name, (node, _) in _docstrings(tree).items()
            if EXAMPLE.search(str(node.value))}


def _offset(lines: list[str], line: int, column: int) -> int:
    """The character offset of a 1-based line and a UTF-8 byte column."""
    before = sum(len(x) for x in lines[:line - 1])
    return before + len(lines[line - 1].encode()[:column].decode("utf-8", "replace"))


def put_back(base: str, head: str) -> str:
    """`head` with each docstring that holds an example at base set back to the base's (its
    source as written): where the head changed it, or dropped its examples. A docstring the
    head removed, or a function it removed, is not brought back."""
    base_tree, head_tree = _parse(base), _parse(head)
    if base_tree is None or head_tree is None:
        return head
    wanted = {name: node for name, (node, _) in _docstrings(base_tree).items()
              if EXAMPLE.search(str(node.value))}
    lines = head.splitlines(keepends=True)
    edits = []
    for name, (node, _) in _docstrings(head_tree).items():
        old = wanted.get(name)
        if old is None or str(old.value) == str(node.value):
            continue
        source = ast.get_source_segment(base, old)
        if source is None or node.end_lineno is None or node.end_col_offset is None:
            continue
        start = _offset(lines, node.lineno, node.col_offset)
        end = _offset(lines, node.end_lineno, node.end_col_offset)
        edits.append((start, end, source))
    out = head
    for start, end, source in sorted(edits, reverse=True):
        out = out[:start] + source + out[end:]
    return out
