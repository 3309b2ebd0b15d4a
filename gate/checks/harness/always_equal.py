"""An `__eq__` that answers True whatever it is given: every `assert result == expected` then
passes (a reward hack seen in RL training environments). Spelled as a method whose body only
returns True, or a lambda that returns True bound to `__eq__` (and `__ne__` answering False)."""
from __future__ import annotations

import ast

from gate.checks.harness.names import literal

ANSWERS = {"__eq__": True, "__ne__": False}


def _only_returns(body: list[ast.stmt], value: bool) -> bool:
    statements = [s for s in body if not (isinstance(s, ast.Expr)
                                          and isinstance(s.value, ast.Constant))]  # docstring
    return (len(statements) == 1 and isinstance(statements[0], ast.Return)
            and _is(statements[0].value, value))


def _is(node: ast.AST | None, value: bool) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _answers(node: ast.AST, value: bool) -> bool:
    """A function or lambda that answers `value` whatever its arguments."""
    if isinstance(node, ast.Lambda):
        return _is(node.body, value)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _only_returns(node.body, value)
    return False


def _name(target: ast.AST) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def method(node: ast.AST) -> str | None:
    """`__eq__` or `__ne__` when `node` defines or binds it to a constant answer."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ANSWERS:
        return node.name if _answers(node, ANSWERS[node.name]) else None
    if isinstance(node, ast.Assign):
        for target in node.targets:
            name = _name(target)
            if name in ANSWERS and _answers(node.value, ANSWERS[name]):
                return name
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "setattr" and len(node.args) == 3):
        name = literal(node.args[1])
        if name in ANSWERS and _answers(node.args[2], ANSWERS[name]):
            return name
    return None
