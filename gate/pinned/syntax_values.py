"""Literals of JavaScript/TypeScript, Go and Rust read as `values.Value`s from their
tree-sitter nodes: the one value model of `values.py`, so that matching is the same in every
language. Each language's part is a few node types: numbers, strings, booleans, null/nil,
arrays, objects, composite literals, tuples, `vec![...]`, a sign."""
from __future__ import annotations

import ast
import re

import tree_sitter

from gate.lang.grammar import grammar_of, parser
from gate.pinned import values
from gate.pinned.values import Value

_RUST_SUFFIX = re.compile(r"(?:[iu](?:8|16|32|64|128|size)|f32|f64)$")
_NONE = ("null", "undefined", "nil")
_TRUE, _FALSE = ("true",), ("false",)
# a string turned into a String or a reference, as Rust and Go tests pass them
_CONVERSIONS = ("to_string", "to_owned", "into", "String::from", "to_vec", "iter")


def text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _number(raw: str) -> Value | None:
    digits = raw.replace("_", "")
    if not digits.startswith(("0x", "0X")):
        digits = _RUST_SUFFIX.sub("", digits)
    digits = digits.rstrip("nN")  # a JavaScript BigInt
    try:
        return ("num", int(digits, 0))
    except ValueError:
        pass
    try:
        return ("num", float(digits))
    except ValueError:
        return None


def _string(node: tree_sitter.Node) -> Value | None:
    raw = text(node)
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.children):
            return None
        return ("str", raw[1:-1])
    if node.type == "raw_string_literal":
        inner = raw[1:-1] if raw.startswith("`") else re.sub(r'^r#*"|"#*$', "", raw)
        return ("str", inner)
    body = raw[1:-1] if raw[:1] in "\"'`" else raw
    try:
        return ("str", ast.literal_eval('"' + body.replace('"', '\\"') + '"'))
    except (SyntaxError, ValueError):
        return ("str", body)


def _macro(node: tree_sitter.Node, names: dict[str, Value]) -> Value | None:
    """`vec![1, 2]`: its tokens read again as an array."""
    macro = node.child_by_field_name("macro")
    tokens = next((c for c in node.children if c.type == "token_tree"), None)
    if macro is None or tokens is None or text(macro) != "vec":
        return None
    inner = reparsed_rust(text(tokens))
    return value(inner, names) if inner is not None else None


def reparsed_rust(tokens: str) -> tree_sitter.Node | None:
    """A macro's token tree (`[1, 2]`, `(f(2, 3), 5)`) read as a Rust expression."""
    if not tokens.startswith(("(", "[")):
        return None
    grammar = grammar_of("x.rs")
    assert grammar is not None
    tree = parser(grammar).parse(b"fn __gate() { let _ = " + tokens.encode() + b"; }")
    if tree.root_node.has_error:
        return None
    found = [n for n in _descendants(tree.root_node) if n.type == "let_declaration"]
    return found[0].child_by_field_name("value") if found else None


def _descendants(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(reversed(n.children))
    return out


def _items(node: tree_sitter.Node, names: dict[str, Value]) -> Value | None:
    """An array, a tuple, a Go slice's or struct's elements; a JS object's pairs."""
    children = [c for c in node.named_children if "comment" not in c.type]
    if node.type == "object" or any(c.type == "keyed_element" for c in children):
        pairs: list[tuple[Value | None, Value | None]] = []
        for c in children:
            key = c.child_by_field_name("key") if c.type == "pair" else (
                c.named_children[0] if c.type == "keyed_element" and c.named_children else None)
            val = c.child_by_field_name("value") if c.type == "pair" else (
                c.named_children[-1] if c.type == "keyed_element" else None)
            if key is None or val is None:
                return None
            bare = key.named_children[0] if key.type == "literal_element" else key
            name: Value | None = ("str", text(bare)) if bare.type in (
                "property_identifier", "identifier", "field_identifier") else value(bare, {})
            pairs.append((name, value(val, names)))
        return values.mapping(pairs)
    return values.seq([value(c, names) for c in children])


def value(node: tree_sitter.Node, names: dict[str, Value]) -> Value | None:
    """The Value of a literal expression (names bound to literals read from `names`)."""
    kind = node.type
    if kind in ("number", "int_literal", "float_literal", "integer_literal"):
        return _number(text(node))
    if kind in ("string", "template_string", "interpreted_string_literal",
                "raw_string_literal", "string_literal"):
        return _string(node)
    if kind in ("true", "false", "boolean_literal"):
        return ("bool", text(node) in _TRUE) if text(node) in _TRUE + _FALSE else None
    if kind in _NONE or (kind == "identifier" and text(node) in ("undefined", "None")):
        return values.NONE
    if kind == "identifier":
        return names.get(text(node))
    if kind in ("parenthesized_expression", "literal_element", "reference_expression",
                "match_pattern") and node.named_children:
        return value(node.named_children[-1], names)
    if kind == "unary_expression":
        operand = node.named_children[-1] if node.named_children else None
        inner = value(operand, names) if operand is not None else None
        sign = text(node).lstrip()[:1]
        if inner is None or inner[0] != "num" or sign not in "-+":
            return None
        return ("num", -inner[1]) if sign == "-" else inner
    if kind == "negative_literal":
        return _number(text(node))
    if kind in ("array", "array_expression", "tuple_expression", "tuple_pattern",
                "slice_pattern", "object", "literal_value"):
        return _items(node, names)
    if kind == "composite_literal":
        body = node.child_by_field_name("body")
        return _items(body, names) if body is not None else None
    if kind == "macro_invocation":
        return _macro(node, names)
    if kind == "call_expression":
        return _converted(node, names)
    return None


def _converted(node: tree_sitter.Node, names: dict[str, Value]) -> Value | None:
    """`"a b".to_string()`, `String::from("a b")`: the literal converted."""
    func = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if func is None or args is None:
        return None
    if func.type == "field_expression" and not args.named_children:
        field = func.child_by_field_name("field")
        inner = func.child_by_field_name("value")
        if field is not None and inner is not None and text(field) in _CONVERSIONS:
            return value(inner, names)
    if text(func) in _CONVERSIONS and len(args.named_children) == 1:
        return value(args.named_children[0], names)
    return None
