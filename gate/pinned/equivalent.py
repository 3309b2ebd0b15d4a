"""Mutants the gate can show are equivalent: no input can tell them from the code, so their
survival says nothing about the tests. Python, the `branch` mutant (`if C` → `if True`) of an
`if` without `else` whose body does nothing when C is false:

- `if A in X: X = X.replace(A, B)` (a `replace` that finds nothing returns the same string);
- `if X != V: X = V`, `if not X == V: X = V` (assigning what is already equal; a name only).

Asked of the head's file, by the `if` at the mutant's line. Said in the summary, not a
finding."""
from __future__ import annotations

import ast

from gate.mutants.mutant import Mutant


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.unparse(a) == ast.unparse(b)  # a name stored and loaded alike


def _replace_that_finds_nothing(test: ast.expr, body: ast.stmt) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In)):
        return False
    needle, haystack = test.left, test.comparators[0]
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1
            and _same(body.targets[0], haystack) and isinstance(body.value, ast.Call)):
        return False
    call = body.value
    return (isinstance(call.func, ast.Attribute) and call.func.attr == "replace"
            and _same(call.func.value, haystack) and len(call.args) == 2
            and not call.keywords and _same(call.args[0], needle))


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
