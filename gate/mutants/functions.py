"""Which function a line of source is in: the unit `pinned` runs at least one mutant of,
whatever its budget (a line outside every function belongs to its file's unit)."""
from __future__ import annotations

import ast
from collections.abc import Collection

import tree_sitter

from gate.lang.grammar import grammar_of, parser

_FUNCTIONS = frozenset((
    "function_declaration", "method_definition", "arrow_function", "function_expression",
    "generator_function_declaration", "method_declaration", "func_literal", "function_item",
    "closure_expression"))


def _python(text: bytes) -> list[tuple[int, int]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _syntax(path: str, text: bytes) -> list[tuple[int, int]]:
    grammar = grammar_of(path)
    if grammar is None:
        return []
    out, todo = [], [parser(grammar).parse(text).root_node]
    while todo:
        node: tree_sitter.Node = todo.pop()
        if node.type in _FUNCTIONS:
            out.append((node.start_point[0] + 1, node.end_point[0] + 1))
        todo.extend(node.named_children)
    return out


def enclosing(path: str, text: bytes, lines: Collection[int]) -> dict[int, int]:
    """Line -> the first line of the innermost function it is in (0: none)."""
    spans = _python(text) if path.endswith(".py") else _syntax(path, text)
    out = {}
    for line in lines:
        inside = [s for s in spans if s[0] <= line <= s[1]]
        out[line] = max(inside)[0] if inside else 0
    return out
