"""Mutants the gate can show are equivalent: no input can tell them from the code, so their
survival says nothing about the tests. Python, the `branch` mutant (`if C` → `if True`) of an
`if` without `else` whose body does nothing when C is false:

- `if A in X: X = X.replace(A, B)` (a `replace` that finds nothing returns the same string),
  and `if "\\t" in X or "\\n" in X: X = X.translate(T)` (w3lib 7a9c94a: a translation
  skipped when none of the characters it acts on is there);
- `if X != V: X = V`, `if not X == V: X = V` (assigning what is already equal; a name only).

Asked of the head's file, by the `if` at the mutant's line. Said in the summary, not a
finding."""
from __future__ import annotations

import ast

from gate.mutants.mutant import Mutant


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.unparse(a) == ast.unparse(b)  # a name stored and loaded alike


def _needles(test: ast.expr) -> tuple[list[ast.expr], ast.expr] | None:
    """`A in X` or `A1 in X or A2 in X ...` (one X): the As and X."""
    terms = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) \
        else [test]
    needles, haystacks = [], []
    for term in terms:
        if not (isinstance(term, ast.Compare) and len(term.ops) == 1
                and isinstance(term.ops[0], ast.In)):
            return None
        needles.append(term.left)
        haystacks.append(term.comparators[0])
    if any(not _same(h, haystacks[0]) for h in haystacks):
        return None
    return needles, haystacks[0]


def _replace_that_finds_nothing(test: ast.expr, body: ast.stmt) -> bool:
    """`if A in X: X = X.replace(A, B)`; `if "\\t" in X or "\\n" in X: X = X.translate(T)`
    (the table taken to act on the characters tested: a translation of none of them leaves
    the string as it is)."""
    found = _needles(test)
    if found is None:
        return False
    needles, haystack = found
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1
            and _same(body.targets[0], haystack) and isinstance(body.value, ast.Call)):
        return False
    call = body.value
    if not (isinstance(call.func, ast.Attribute) and _same(call.func.value, haystack)
            and not call.keywords):
        return False
    if call.func.attr == "replace":
        return len(needles) == 1 and len(call.args) == 2 and _same(call.args[0], needles[0])
    return call.func.attr == "translate" and len(call.args) == 1 and all(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) == 1
        for n in needles)


def _assigns_what_differs(test: ast.expr, body: ast.stmt) -> bool:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(
            test.operand, ast.Compare) and [type(o) for o in test.operand.ops] == [ast.Eq]:
        compare = test.operand
    elif isinstance(test, ast.Compare) and [type(o) for o in test.ops] == [ast.NotEq]:
        compare = test
    else:
        return False
    left, right = compare.left, compare.comparators[0]
    return (isinstance(body, ast.Assign) and len(body.targets) == 1
            and isinstance(body.targets[0], ast.Name) and isinstance(left, ast.Name)
            and _same(body.targets[0], left) and _same(body.value, right)
            and isinstance(right, (ast.Name, ast.Constant)))


def shown(mutant: Mutant, text: bytes) -> bool:
    """Whether `mutant` is equivalent by one of the rules above."""
    if mutant.kind != "branch" or not mutant.path.endswith(".py"):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        if (isinstance(node, ast.If) and node.lineno == mutant.line and not node.orelse
                and len(node.body) == 1):
            return (_replace_that_finds_nothing(node.test, node.body[0])
                    or _assigns_what_differs(node.test, node.body[0]))
    return False
