"""A file's statements as a parser sees them: where each starts and ends, the definitions it lies
in, and its text as tokens (a compound statement's header only, without its body), so that the
same statement reads the same after a formatter joined, split or re-indented it.

Python is read with `ast` (`ast.unparse` gives one spelling whatever the layout); the languages
with a tree-sitter grammar (`gate.lang.grammar`) by their nodes whose type names a statement,
declaration, definition or item. None where neither reads the file, or it does not parse.
"""
from __future__ import annotations

import ast
import copy
import dataclasses
import re
import warnings

import tree_sitter

from gate.lang.grammar import grammar_of, parser
from gate.lang.languages import language_of


@dataclasses.dataclass(frozen=True)
class Statement:
    start: int  # first line (1-based), its decorators or attributes included
    end: int  # last line
    header_end: int  # last line of its header: a compound statement's body starts after it
    depth: int  # how many statements it lies in
    scope: tuple[str, ...]  # the names of the definitions it lies in
    key: str  # its text as tokens, its body left out; a definition's kind and name


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases", "decorator_list")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Tree-sitter node types that are statements, whatever the grammar.
_STATEMENT = re.compile(r"(statement|declaration|definition|_item|_signature|_spec)$")
# Nodes that apply to the statement after them: not statements of their own.
_ATTACHED = frozenset({"attribute_item", "inner_attribute_item", "decorator", "annotation",
                       "marker_annotation", "comment", "line_comment", "block_comment"})
_TRAILING_COMMA = re.compile(r",\s*(?=[)\]}>])")


def _python_key(node: ast.stmt) -> str:
    if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
        return "pytestmark ="  # the module's marks: one thing whatever they hold
    if isinstance(node, _SCOPES):  # a definition is its name, whatever its signature
        return f"{type(node).__name__} {node.name}"
    if not any(getattr(node, name, None) for name in _BODIES):
        return ast.unparse(node)
    header = copy.copy(node)
    for name in _BODIES:
        if hasattr(header, name):
            setattr(header, name, [])
    return ast.unparse(header).split("\n")[0]


def _python(text: str) -> list[Statement] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in strings: not ours to say
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    out: list[Statement] = []

    def visit(body: list[ast.stmt], depth: int, scope: tuple[str, ...]) -> None:
        for node in body:
            decorators = getattr(node, "decorator_list", [])
            start = min([node.lineno, *(d.lineno for d in decorators)])
            children = [c for name in _BODIES[:-1] for c in _statements(getattr(node, name, []))]
            header_end = (min(c.lineno for c in children) - 1) if children else (
                node.end_lineno or node.lineno)
            out.append(Statement(start, node.end_lineno or node.lineno,
                                 max(header_end, node.lineno), depth, scope, _python_key(node)))
            inner = (*scope, node.name) if isinstance(node, _SCOPES) else scope
            visit(children, depth + 1, inner)

    visit(tree.body, 0, ())
    return out


def _statements(items: object) -> list[ast.stmt]:
    """The statements of a body, and of an `except` or `case` clause's body."""
    out: list[ast.stmt] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, ast.stmt):
            out.append(item)
        elif isinstance(item, (ast.ExceptHandler, ast.match_case)):
            out.extend(item.body)
    return out


def _leaves(node: tree_sitter.Node, skip: frozenset[int], out: list[str]) -> None:
    if node.id in skip or node.type in _ATTACHED:
        return
    if node.child_count == 0:
        out.append((node.text or b"").decode("utf-8", "replace"))
        return
    for child in node.children:
        _leaves(child, skip, out)


def _header_key(node: tree_sitter.Node) -> tuple[str, int]:
    """The statement's tokens without any block below it, and the last line of its header."""
    blocks: list[tree_sitter.Node] = []
    stack = list(node.children)
    while stack:
        child = stack.pop()
        field_body = child.parent.child_by_field_name("body") if child.parent else None
        if field_body is not None and field_body.id == child.id and child.child_count > 1:
            blocks.append(child)
            continue
        stack.extend(child.children)
    parts: list[str] = []
    _leaves(node, frozenset(b.id for b in blocks), parts)
    first_block = min((b.start_point[0] for b in blocks), default=node.end_point[0] + 1)
    return _TRAILING_COMMA.sub("", " ".join(parts)), max(first_block, node.start_point[0] + 1)


def _tree(path: str, text: str) -> list[Statement] | None:
    grammar = grammar_of(path)
    if grammar is None:
        return None
    tree = parser(grammar).parse(text.encode("utf-8", "replace"))
    if tree.root_node.has_error:
        return None
    out: list[Statement] = []

    def visit(node: tree_sitter.Node, depth: int, scope: tuple[str, ...]) -> None:
        for child in node.named_children:
            if _STATEMENT.search(child.type) and child.type not in _ATTACHED:
                key, header_end = _header_key(child)
                name = child.child_by_field_name("name")
                if name is not None and child.child_by_field_name("body") is not None:
                    key = f"{child.type} {(name.text or b'').decode('utf-8', 'replace')}"
                start = child.start_point[0] + 1
                # attributes and decorators written before it belong to it
                previous = child.prev_named_sibling
                while previous is not None and previous.type in _ATTACHED - {
                        "comment", "line_comment", "block_comment", "inner_attribute_item"}:
                    start = previous.start_point[0] + 1
                    previous = previous.prev_named_sibling
                out.append(Statement(start, child.end_point[0] + 1, header_end, depth, scope, key))
                inner = scope
                if name is not None and child.child_by_field_name("body") is not None:
                    inner = (*scope, (name.text or b"").decode("utf-8", "replace"))
                visit(child, depth + 1, inner)
            else:
                visit(child, depth, scope)

    visit(tree.root_node, 0, ())
    return out


def parse(path: str, text: str) -> list[Statement] | None:
    """The statements of `path`, outermost first; None where no parser reads it."""
    language = language_of(path)
    if language is not None and language.name == "python":
        return _python(text)
    return _tree(path, text)
