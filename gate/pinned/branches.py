"""Where code branches on literal values: each `Site` is one way a condition, a `match` case
or a lookup in a literal table can be true, as the expressions it compares and the values it
compares them with (`if a == 2 and b == 3` is one site, `a` with 2 and `b` with 3). Read from
the whole head file (`special_cases` needs the other branches on the same expression to tell
a table of constants from a special case); `special_cases` keeps the sites on changed lines.

Python here (`ast`); JavaScript/TypeScript, Go and Rust in `branches_syntax.py`."""
from __future__ import annotations

import ast
import dataclasses
import itertools

from gate.pinned import inputs
from gate.pinned.values import Value

_ALTERNATIVES = 64  # ways one condition can hold, read at most


@dataclasses.dataclass(frozen=True)
class Site:
    lines: frozenset[int]  # the lines of the condition (or case, or lookup)
    shown: str  # what it is, as written
    pairs: tuple[tuple[str, Value], ...]  # (an expression's text, the literal it is compared with)
    function: str  # the enclosing function ("" at module level)
    callees: frozenset[str]  # the names a test calls that function by
    params: tuple[str, ...]  # its parameters, `self` and `cls` left out
    overrides: bool  # the branch returns before a general path that gives another answer

    @property
    def bound(self) -> dict[str, Value]:
        """The parameters the site compares with literals, and their values."""
        return {name: v for name, v in self.pairs if name in self.params}


@dataclasses.dataclass(frozen=True)
class Scope:
    function: str
    callees: frozenset[str]
    params: tuple[str, ...]


MODULE = Scope("", frozenset(), ())


def _line_span(node: ast.AST) -> frozenset[int]:
    start = getattr(node, "lineno", 0)
    return frozenset(range(start, (getattr(node, "end_lineno", None) or start) + 1))


def _literal(node: ast.expr) -> Value | None:
    return inputs.value(node, {})


def _terms(test: ast.expr) -> list[list[ast.expr]]:
    """The condition as alternatives, each a conjunction of terms."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return [c for v in test.values for c in _terms(v)][:_ALTERNATIVES]
    if isinstance(test, ast.BoolOp):
        parts = [_terms(v) for v in test.values]
        return [[t for conj in combo for t in conj]
                for combo in itertools.islice(itertools.product(*parts), _ALTERNATIVES)]
    return [[test]]


def _options(term: ast.expr) -> list[tuple[ast.expr, Value]]:
    """The (expression, literal) ways a term holds: `x == L`, `L == x`, `x is L`, each item of
    `x in [L1, L2]`."""
    if not isinstance(term, ast.Compare) or len(term.ops) != 1:
        return []
    left, right, op = term.left, term.comparators[0], term.ops[0]
    if isinstance(op, (ast.Eq, ast.Is)):
        if (found := _literal(right)) is not None and _literal(left) is None:
            return [(left, found)]
        if (found := _literal(left)) is not None and _literal(right) is None:
            return [(right, found)]
    if isinstance(op, ast.In) and _literal(left) is None:
        if isinstance(right, (ast.List, ast.Tuple, ast.Set)):
            items = [(left, v) for x in right.elts if (v := _literal(x)) is not None]
            return items if len(items) == len(right.elts) else []
        if isinstance(right, ast.Dict):
            return [(left, v) for k in right.keys if k is not None
                    and (v := _literal(k)) is not None]
    return []


def _pairs(subject: ast.expr, found: Value) -> list[tuple[str, Value]]:
    """`(a, b) == (2, 3)` compares `a` with 2 and `b` with 3 as well as the tuple."""
    out = [(ast.unparse(subject), found)]
    if isinstance(subject, (ast.Tuple, ast.List)) and found[0] == "seq" and len(
            found[1]) == len(subject.elts):
        out += [(ast.unparse(e), v) for e, v in zip(subject.elts, found[1], strict=True)
                if isinstance(e, ast.Name)]
    return out


def _condition(test: ast.expr, scope: Scope, overrides: bool, at: ast.AST) -> list[Site]:
    out = []
    for conjunction in _terms(test):
        ways = [_options(t) for t in conjunction]
        ways = [w for w in ways if w]
        for combo in itertools.islice(itertools.product(*ways), _ALTERNATIVES):
            pairs = tuple(p for subject, v in combo for p in _pairs(subject, v))
            if pairs:
                out.append(Site(_line_span(at), f"if {ast.unparse(test)}", pairs,
                                scope.function, scope.callees, scope.params, overrides))
    return out


def _pattern(pattern: ast.pattern) -> list[Value]:
    """The literal values a `case` pattern matches (none for one that captures)."""
    if isinstance(pattern, ast.MatchValue):
        found = _literal(pattern.value)
        return [found] if found is not None else []
    if isinstance(pattern, ast.MatchSingleton):
        return [v] if (v := _literal(ast.Constant(pattern.value))) is not None else []
    if isinstance(pattern, ast.MatchOr):
        return [v for p in pattern.patterns for v in _pattern(p)]
    if isinstance(pattern, ast.MatchSequence):
        items = [_pattern(p) for p in pattern.patterns]
        if any(len(i) != 1 for i in items):
            return []
        return [("seq", tuple(i[0] for i in items))]
    return []


def _returns(body: list[ast.stmt]) -> bool:
    return any(isinstance(s, (ast.Return, ast.Raise)) for s in body)


def _lookups(node: ast.AST, scope: Scope) -> list[Site]:
    """`{K: V, ...}[x]` and `{K: V, ...}.get(x, default)`: x compared with each key."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        table, key, default = node.value, node.slice, False
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
          and node.func.attr == "get" and isinstance(node.func.value, ast.Dict) and node.args):
        table, key, default = node.func.value, node.args[0], len(node.args) > 1
    else:
        return []
    return [Site(_line_span(node), ast.unparse(node)[:80], tuple(_pairs(key, v)),
                 scope.function, scope.callees, scope.params, default)
            for k in table.keys if k is not None and (v := _literal(k)) is not None]


def _scope(node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None) -> Scope:
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if params and params[0] in ("self", "cls") and owner is not None:
        params = params[1:]
    callees = {node.name}
    if owner is not None and node.name in ("__init__", "__new__", "__call__"):
        callees.add(owner)
    return Scope(node.name, frozenset(callees), tuple(params))


def _visit(body: list[ast.stmt], scope: Scope, owner: str | None, out: list[Site]) -> None:
    for i, stmt in enumerate(body):
        later = i + 1 < len(body)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _visit(stmt.body, _scope(stmt, owner), None, out)
            continue
        if isinstance(stmt, ast.ClassDef):
            _visit(stmt.body, scope, stmt.name, out)
            continue
        if isinstance(stmt, ast.If):
            out += _condition(stmt.test, scope, _returns(stmt.body) and (
                later or bool(stmt.orelse)), stmt.test)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                for found in _pattern(case.pattern):
                    out.append(Site(_line_span(case.pattern), f"case {ast.unparse(case.pattern)}",
                                    tuple(_pairs(stmt.subject, found)), scope.function,
                                    scope.callees, scope.params, _returns(case.body)))
        for node in _expressions(stmt):
            if isinstance(node, ast.IfExp):
                out += _condition(node.test, scope, True, node.test)
            out += _lookups(node, scope)
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                _visit(inner, scope, owner, out)
        for field in ("handlers", "cases"):
            for part in getattr(stmt, field, None) or []:
                _visit(part.body, scope, owner, out)


def _expressions(stmt: ast.stmt) -> list[ast.AST]:
    """The expressions of a statement itself, not of the statements in its body."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.stmt, ast.match_case, ast.excepthandler)):
                continue
            out.append(child)
            todo.append(child)
    return out


def python(text: bytes) -> list[Site]:
    """Every site of a Python file (none if it does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[Site] = []
    _visit(tree.body, MODULE, None, out)
    return out
