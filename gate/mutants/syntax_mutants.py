"""Mutants of JavaScript, TypeScript, Go and Rust source, read with the tree-sitter grammars
the gate already has (gate.lang.grammar).

Left out, as lines with nothing to test: comments and strings, imports (`import`, `use`),
type annotations and declarations, attributes, macros (Rust's `println!`, `debug!`: their
arguments are tokens, not code) and logging calls; and any mutation after which the file no
longer parses."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import tree_sitter

from gate.lang.grammar import Grammar, grammar_of, parser
from gate.mutants import calls
from gate.mutants.mutant import Mutant, shown_text
from gate.mutants.operators import KINDS, REMOVED, RETURNS, TRUE, Family, bumped, swap


@dataclasses.dataclass(frozen=True)
class Nodes:
    """The node types of one grammar that the mutations read."""
    family: Family
    booleans: tuple[str, ...]
    numbers: tuple[str, ...]
    returns: tuple[str, ...]  # return statements whose value is replaced
    left_out: tuple[str, ...]  # subtrees with nothing to test


_JS = Nodes("js", ("true", "false"), ("number",), ("return_statement",),
            ("import_statement", "comment", "string", "template_string", "regex",
             "type_annotation", "type_alias_declaration", "interface_declaration",
             "type_arguments", "type_parameters", "enum_declaration"))
NODES: dict[str, Nodes] = {
    "javascript": _JS, "typescript": _JS, "tsx": _JS,
    "go": Nodes("go", ("true", "false"), ("int_literal",), (),
                ("import_declaration", "comment", "interpreted_string_literal",
                 "raw_string_literal", "type_declaration")),
    "rust": Nodes("rust", ("boolean_literal",), ("integer_literal",), (),
                  ("use_declaration", "attribute_item", "inner_attribute_item",
                   "macro_invocation", "line_comment", "block_comment", "string_literal",
                   "raw_string_literal", "type_item", "struct_item", "enum_item")),
}


def _text(data: bytes, node: tree_sitter.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _walk(node: tree_sitter.Node, nodes: Nodes, data: bytes) -> Iterator[tree_sitter.Node]:
    if node.type in nodes.left_out:
        return
    if node.type == "call_expression":
        called = node.child_by_field_name("function")
        if called is not None and calls.is_logging(_text(data, called)):
            return
    yield node
    for child in node.children:
        yield from _walk(child, nodes, data)


def _binary(path: str, data: bytes, node: tree_sitter.Node, family: Family,
            ) -> Iterator[Mutant]:
    op = node.child_by_field_name("operator")
    if op is None:
        return
    token = _text(data, op)
    for kind in KINDS[1:4]:
        after = swap(kind, family, token)
        if after is None:
            continue
        mutated = data[:op.start_byte] + after.encode() + data[op.end_byte:]
        grown = len(after) - (op.end_byte - op.start_byte)
        yield Mutant(path, op.start_point[0] + 1, kind, op.start_byte, op.end_byte,
                     after.encode(), shown_text(data, node.start_byte, node.end_byte),
                     shown_text(mutated, node.start_byte, node.end_byte + grown))
        return


def _branch(path: str, data: bytes, node: tree_sitter.Node, family: Family,
            ) -> Iterator[Mutant]:
    condition = node.child_by_field_name("condition")
    if condition is not None and condition.type == "parenthesized_expression":
        inner = condition.named_children
        condition = inner[0] if len(inner) == 1 else None
    if condition is None or condition.type in ("let_condition", "let_chain") or _text(
            data, condition) == TRUE[family]:
        return
    yield Mutant(path, node.start_point[0] + 1, "branch", condition.start_byte,
                 condition.end_byte, TRUE[family].encode(), f"if {_text(data, condition)}",
                 f"if {TRUE[family]}")


def _statement(path: str, data: bytes, node: tree_sitter.Node, family: Family,
               ) -> Iterator[Mutant]:
    removed = REMOVED.get(family)
    named = node.named_children
    if removed is None or len(named) != 1 or named[0].type not in (
            "call_expression", "await_expression"):
        return
    called = named[0].child_by_field_name("function")
    if called is not None and calls.is_logging(_text(data, called)):
        return
    yield Mutant(path, node.start_point[0] + 1, "statement", node.start_byte, node.end_byte,
                 removed.encode(), shown_text(data, node.start_byte, node.end_byte), removed)


def _mutants(path: str, data: bytes, node: tree_sitter.Node, nodes: Nodes) -> Iterator[Mutant]:
    family = nodes.family
    line = node.start_point[0] + 1
    if node.type in ("if_statement", "if_expression"):
        yield from _branch(path, data, node, family)
    elif node.type == "binary_expression":
        yield from _binary(path, data, node, family)
    elif node.type in nodes.booleans:
        after = swap("constant", family, _text(data, node))
        if after:
            yield Mutant(path, line, "constant", node.start_byte, node.end_byte,
                         after.encode(), _text(data, node), after)
    elif node.type in nodes.numbers:
        bigger = bumped(_text(data, node))
        if bigger:
            yield Mutant(path, line, "constant", node.start_byte, node.end_byte,
                         bigger.encode(), _text(data, node), bigger)
    elif node.type in nodes.returns and family in RETURNS:
        value = node.named_children[0] if node.named_children else None
        if value is not None and _text(data, value) not in ("undefined", "null"):
            yield Mutant(path, line, "return", value.start_byte, value.end_byte,
                         RETURNS[family].encode(),
                         shown_text(data, node.start_byte, node.end_byte),
                         f"return {RETURNS[family]}")
    elif node.type == "expression_statement":
        yield from _statement(path, data, node, family)


def _grammar(path: str) -> tuple[Grammar, Nodes] | None:
    grammar = grammar_of(path)
    nodes = NODES.get(grammar.name) if grammar else None
    return (grammar, nodes) if grammar and nodes else None


def candidates(path: str, text: bytes) -> list[Mutant]:
    """Every mutation of the file, unchecked (see `parses`), in no particular order; none for
    a file that does not parse."""
    found = _grammar(path)
    if found is None:
        return []
    grammar, nodes = found
    tree = parser(grammar).parse(text)
    if tree.root_node.has_error:
        return []
    return [m for node in _walk(tree.root_node, nodes, text)
            for m in _mutants(path, text, node, nodes)]


def parses(path: str, text: bytes) -> bool:
    found = _grammar(path)
    return found is not None and not parser(found[0]).parse(text).root_node.has_error
