"""Where JavaScript/TypeScript, Go and Rust code branches on literal values (`branches.py`
for Python): `if` conditions and conditional expressions (`a === 2 && b === 3`, `||` as
alternatives), `switch`/`match` cases, `[...].includes(x)`, a lookup in an object literal;
`JSON.stringify(x) === "[5,9]"` compares `x` with the array."""
from __future__ import annotations

import itertools

import tree_sitter

from gate.lang.grammar import grammar_of, parser
from gate.pinned import values
from gate.pinned.branches import MODULE, Scope, Site
from gate.pinned.inputs_syntax import callee
from gate.pinned.syntax_values import text, value
from gate.pinned.values import Value

_LIMIT = 64
_FUNCTIONS = ("function_declaration", "method_definition", "function_expression",
              "generator_function_declaration", "method_declaration", "function_item")
_EQUAL = ("==", "===")


def _unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.type == "parenthesized_expression" and len(node.named_children) == 1:
        node = node.named_children[0]
    return node


def _operator(node: tree_sitter.Node) -> str:
    op = node.child_by_field_name("operator")
    return text(op) if op is not None else ""


def _terms(node: tree_sitter.Node) -> list[list[tree_sitter.Node]]:
    node = _unwrap(node)
    if node.type == "binary_expression" and _operator(node) == "||":
        sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
        return [c for s in sides if s is not None for c in _terms(s)][:_LIMIT]
    if node.type == "binary_expression" and _operator(node) == "&&":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return [[node]]
        return [a + b for a, b in itertools.islice(
            itertools.product(_terms(left), _terms(right)), _LIMIT)]
    return [[node]]


def _stringified(subject: tree_sitter.Node, found: Value) -> tuple[str, Value]:
    """`JSON.stringify(x) === "[5,9]"`: `x` compared with the array."""
    if subject.type == "call_expression" and found[0] == "str":
        func, args = subject.child_by_field_name("function"), subject.child_by_field_name(
            "arguments")
        if func is not None and args is not None and text(func) == "JSON.stringify" and len(
                args.named_children) == 1 and (parsed := values.from_json(found[1])):
            return text(args.named_children[0]), parsed
    return text(subject), found


def _options(term: tree_sitter.Node) -> list[tuple[str, Value]]:
    term = _unwrap(term)
    if term.type == "binary_expression" and _operator(term) in _EQUAL:
        left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
        if left is None or right is None:
            return []
        lv, rv = value(_unwrap(left), {}), value(_unwrap(right), {})
        if rv is not None and lv is None:
            return [_stringified(_unwrap(left), rv)]
        if lv is not None and rv is None:
            return [_stringified(_unwrap(right), lv)]
    if term.type == "call_expression":  # [L1, L2].includes(x), [L1, L2].contains(&x)
        func, args = term.child_by_field_name("function"), term.child_by_field_name("arguments")
        if func is None or args is None or len(args.named_children) != 1:
            return []
        owner = func.child_by_field_name("object") or func.child_by_field_name("value")
        if callee(func) in ("includes", "contains") and owner is not None:
            found = value(_unwrap(owner), {})
            if found is not None and found[0] == "seq":
                subject = _unwrap(args.named_children[0])
                if subject.type == "reference_expression" and subject.named_children:
                    subject = subject.named_children[-1]
                return [(text(subject), v) for v in found[1]]
    return []


def _pairs(subject: str, node: tree_sitter.Node | None, found: Value,
           ) -> tuple[tuple[str, Value], ...]:
    """`(a, b) == (2, 3)`, `match (a, b) { (2, 3) => ..}`: each name with its item too."""
    out = [(subject, found)]
    if node is not None and node.type == "tuple_expression" and found[0] == "seq":
        names = node.named_children
        if len(names) == len(found[1]):
            out += [(text(n), v) for n, v in zip(names, found[1], strict=True)
                    if n.type == "identifier"]
    return tuple(out)


def _returns(block: tree_sitter.Node | None) -> bool:
    if block is None:
        return False
    todo = [(block, 0)]
    while todo:
        node, depth = todo.pop()
        if node.type in ("return_statement", "return_expression", "throw_statement"):
            return True
        if depth < 3:
            todo += [(c, depth + 1) for c in node.named_children]
    return False


def _condition(node: tree_sitter.Node, condition: tree_sitter.Node, scope: Scope,
               overrides: bool) -> list[Site]:
    lines = frozenset(range(condition.start_point[0] + 1, condition.end_point[0] + 2))
    out = []
    for conjunction in _terms(condition):
        ways = [w for t in conjunction if (w := _options(t))]
        for combo in itertools.islice(itertools.product(*ways), _LIMIT):
            if combo:
                out.append(Site(lines, f"if {' '.join(text(condition).split())}"[:80],
                                tuple(combo), scope.function, scope.callees, scope.params,
                                overrides))
    return out


def _cases(node: tree_sitter.Node, scope: Scope) -> list[Site]:
    """`switch (x) { case L: ... }` (JS, Go) and `match x { L => ... }` (Rust)."""
    subject = node.child_by_field_name("value")
    if subject is None:
        return []
    subject = _unwrap(subject)
    arms = [n for n in _descendants(node, 3) if n.type in (
        "switch_case", "expression_case", "match_arm")]
    out = []
    for arm in arms:
        patterns = ([arm.child_by_field_name("pattern")] if arm.type == "match_arm" else
                    [c for c in (arm.child_by_field_name("value"),) if c is not None])
        for pattern in patterns:
            if pattern is None:
                continue
            found = [value(p, {}) for p in (pattern.named_children if pattern.type == (
                "expression_list") else [pattern])]
            for v in found:
                if v is not None:
                    lines = frozenset(range(pattern.start_point[0] + 1, pattern.end_point[0] + 2))
                    out.append(Site(lines, f"case {' '.join(text(pattern).split())}"[:80],
                                    _pairs(text(subject), subject, v), scope.function,
                                    scope.callees, scope.params,
                                    arm.type == "match_arm" or _returns(arm)))
    return out


def _descendants(node: tree_sitter.Node, depth: int) -> list[tree_sitter.Node]:
    out = []
    for child in node.named_children:
        out.append(child)
        if depth > 1:
            out += _descendants(child, depth - 1)
    return out


def _params(node: tree_sitter.Node) -> tuple[str, ...]:
    params = node.child_by_field_name("parameters")
    out: list[str] = []
    for p in params.named_children if params is not None else []:
        if p.type == "identifier":
            out.append(text(p))
        elif p.type == "parameter_declaration":  # Go: `a, b int`
            out += [text(c) for c in p.children_by_field_name("name")]
        else:  # JS default values, TS's required parameters, Rust's `a: i32`
            inner = (p.child_by_field_name("left") or p.child_by_field_name("pattern"))
            if inner is not None and inner.type == "identifier":
                out.append(text(inner))
    return tuple(out)


def _scope(node: tree_sitter.Node, owner: str | None) -> Scope:
    name_node = node.child_by_field_name("name")
    if name_node is None and node.parent is not None and node.parent.type == (
            "variable_declarator"):
        name_node = node.parent.child_by_field_name("name")
    name = text(name_node) if name_node is not None else ""
    callees = {name}
    if owner and name in ("constructor", "new"):
        callees.add(owner)
    return Scope(name, frozenset(callees), _params(node))


def _visit(node: tree_sitter.Node, scope: Scope, owner: str | None, out: list[Site],
           ) -> tuple[Scope, str | None]:
    """The sites at `node` itself; the scope and class its children are in."""
    kind = node.type
    if kind in _FUNCTIONS or kind == "arrow_function":
        scope = _scope(node, owner)
    elif kind in ("class_declaration", "class", "impl_item"):
        name = node.child_by_field_name("name") or node.child_by_field_name("type")
        owner = text(name) if name is not None else owner
    if kind in ("if_statement", "if_expression"):
        condition = node.child_by_field_name("condition")
        if condition is not None and condition.type not in ("let_condition", "let_chain"):
            consequence = node.child_by_field_name("consequence")
            statement = node.parent if node.parent is not None and node.parent.type == (
                "expression_statement") else node
            overrides = _returns(consequence) and (
                node.child_by_field_name("alternative") is not None
                or statement.next_named_sibling is not None)
            out += _condition(node, condition, scope, overrides)
    elif kind == "ternary_expression":
        condition = node.child_by_field_name("condition")
        if condition is not None:
            out += _condition(node, condition, scope, True)
    elif kind in ("switch_statement", "expression_switch_statement", "match_expression"):
        out += _cases(node, scope)
    elif kind == "subscript_expression":  # ({K: V})[x]
        table = node.child_by_field_name("object")
        key = node.child_by_field_name("index")
        found = value(_unwrap(table), {}) if table is not None else None
        if key is not None and found is not None and found[0] == "map":
            lines = frozenset(range(node.start_point[0] + 1, node.end_point[0] + 2))
            out += [Site(lines, " ".join(text(node).split())[:80], ((text(key), k),),
                         scope.function, scope.callees, scope.params, False)
                    for k, _ in found[1]]
    elif kind == "binary_expression" and _operator(node) in _EQUAL and (
            node.parent is not None and node.parent.type in ("return_statement",
                                                               "expression_list")):
        out += _condition(node, node, scope, False)  # `return p == "a b"`
    return scope, owner


def sites(path: str, data: bytes) -> list[Site]:
    grammar = grammar_of(path)
    if grammar is None:
        return []
    out: list[Site] = []
    # a loop, not recursion: generated code nests deeper than Python's stack
    todo: list[tuple[tree_sitter.Node, Scope, str | None]] = [
        (parser(grammar).parse(data).root_node, MODULE, None)]
    while todo:
        node, scope, owner = todo.pop()
        inner, cls = _visit(node, scope, owner, out)
        todo.extend((child, inner, cls) for child in reversed(node.named_children))
    return out
