"""What JavaScript/TypeScript, Go and Rust tests pass (`inputs.py` for Python): each call
whose arguments are all literals (or names bound to literals in the file), a Go or JS table's
rows (`{a: 2, b: 3}` with `Add(tc.a, tc.b)`), Rust's `assert_eq!(add(2, 3), 5)` (the macro's
tokens read again as an expression); every compound value passed."""
from __future__ import annotations

import tree_sitter

from gate.lang.grammar import grammar_of, parser
from gate.pinned.inputs import Call, Inputs
from gate.pinned.syntax_values import reparsed_rust, text, value
from gate.pinned.values import Value

_CALLS = ("call_expression", "new_expression")
_ARGUMENTS = ("arguments", "argument_list")
_FIELDS = ("member_expression", "selector_expression", "field_expression")
_ROWS = 500


def _walk(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(reversed(n.children))
    return out


def callee(func: tree_sitter.Node) -> str:
    """A call's name: the last part of `a.b.c`, `pkg.F`, `Type::new`."""
    for field in ("property", "field", "name"):
        part = func.child_by_field_name(field)
        if part is not None and func.type != "identifier":
            return text(part)
    return text(func)


def _names(nodes: list[tree_sitter.Node]) -> dict[str, Value]:
    """Names bound to literals anywhere in the file (the last binding wins)."""
    out: dict[str, Value] = {}
    for n in nodes:
        if n.type == "variable_declarator":
            name, val = n.child_by_field_name("name"), n.child_by_field_name("value")
        elif n.type == "let_declaration":
            name, val = n.child_by_field_name("pattern"), n.child_by_field_name("value")
        elif n.type in ("short_var_declaration", "var_spec"):
            left = n.child_by_field_name("left") or n.child_by_field_name("name")
            right = n.child_by_field_name("right") or n.child_by_field_name("value")
            lefts = left.named_children if left is not None and left.named_children else [left]
            rights = right.named_children if right is not None and right.type == (
                "expression_list") else [right]
            if len(lefts) == 1 and len(rights) == 1:
                name, val = lefts[0], rights[0]
            else:
                continue
        else:
            continue
        if name is not None and val is not None and name.type == "identifier":
            found = value(val, out)
            if found is not None:
                out[text(name)] = found
    return out


def _records(nodes: list[tree_sitter.Node], names: dict[str, Value]) -> list[dict[str, Value]]:
    """The rows of tables in the file: objects or keyed struct literals, field -> value."""
    out: list[dict[str, Value]] = []
    for n in nodes:
        if n.type not in ("object", "literal_value") or len(out) >= _ROWS:
            continue
        found = value(n, names)
        if found is not None and found[0] == "map" and all(k[0] == "str" for k, _ in found[1]):
            out.append({k[1]: v for k, v in found[1]})
    return out


def _call(node: tree_sitter.Node, names: dict[str, Value], records: list[dict[str, Value]],
          path: str, line: int, out: Inputs) -> None:
    func = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    args = node.child_by_field_name("arguments")
    if func is None or args is None or args.type not in _ARGUMENTS:
        return
    items = [a for a in args.named_children if "comment" not in a.type]
    if not items:
        return
    name = callee(func)
    found = [value(a, names) for a in items]
    for v in found:
        if v is not None:
            out.passes(v, path, line)
    if all(v is not None for v in found):
        out.add(Call(name, tuple(v for v in found if v is not None), (), path, line))
        return
    fields = [callee(a) if a.type in _FIELDS else None for a in items]
    if any(v is None and f is None for v, f in zip(found, fields, strict=True)):
        return
    for row in records:  # a table test: `Add(tc.a, tc.b)` for each row {a: 2, b: 3}
        filled = [v if v is not None else row.get(f or "") for v, f in
                  zip(found, fields, strict=True)]
        if all(v is not None for v in filled):
            out.add(Call(name, tuple(v for v in filled if v is not None), (), path, line))


def _rust_macros(nodes: list[tree_sitter.Node]) -> list[tuple[tree_sitter.Node, int]]:
    """The expressions inside Rust macros (`assert_eq!(add(2, 3), 5)`), read again, each with
    its macro's line."""
    out = []
    for n in nodes:
        if n.type == "macro_invocation":
            tokens = next((c for c in n.children if c.type == "token_tree"), None)
            inner = reparsed_rust(text(tokens)) if tokens is not None else None
            if inner is not None:
                out += [(m, n.start_point[0] + 1) for m in _walk(inner)]
    return out


def inputs(path: str, data: bytes) -> Inputs:
    """The inputs a test file (or a Rust source's test module) passes."""
    out = Inputs()
    grammar = grammar_of(path)
    if grammar is None:
        return out
    nodes = _walk(parser(grammar).parse(data).root_node)
    placed = [(n, n.start_point[0] + 1) for n in nodes]
    if grammar.name == "rust":
        placed += _rust_macros(nodes)
    every = [n for n, _ in placed]
    names = _names(every)
    records = _records(every, names)
    for n, line in placed:
        if n.type in _CALLS:
            _call(n, names, records, path, line, out)
    return out
