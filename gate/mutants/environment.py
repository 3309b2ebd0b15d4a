"""Whether a Python `if` asks which Python or system runs it, and nothing else
(`sys.version_info < (3, 11)`, `sys.platform == "win32" or os.name == "nt"`, `not
TYPE_CHECKING`): on the gate's one interpreter such a test has one value, so no test of the
change can take its other way. Read by the mutants (no `if True` for it) and by `pinned`'s
guards (a survivor behind it that no test ran is code for another Python or system). A
check joined by `and` or `or` to another condition is none: the tests can take it."""
from __future__ import annotations

import ast

_VERSION_NAMES = ("version_info", "platform", "implementation", "hexversion", "maxsize",
                  "byteorder", "pypy_version_info")


def _reads_where(node: ast.AST) -> str | None:
    """Whether an expression reads which Python or system runs it (`sys.version_info[:2]`,
    `sys.platform.startswith`, `platform.system()`, `os.name`): "version" or "platform"."""
    if isinstance(node, ast.Subscript):
        return _reads_where(node.value)
    if isinstance(node, ast.Call):
        return _reads_where(node.func)
    if isinstance(node, ast.Name) and node.id == "TYPE_CHECKING":
        return "typing"
    if isinstance(node, ast.Attribute):
        if (ast.unparse(node.value), node.attr) == ("typing", "TYPE_CHECKING"):
            return "typing"
        if isinstance(node.value, ast.Name):
            if node.value.id == "sys" and node.attr in _VERSION_NAMES:
                return "platform" if node.attr == "platform" else "version"
            if (node.value.id, node.attr) == ("os", "name") or node.value.id == "platform":
                return "platform"
        return _reads_where(node.value)
    return None


def _constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) or (
        isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(map(_constant, node.elts)))


def checks_where(test: ast.AST) -> str | None:
    """Whether an `if`'s test asks which Python or system runs it, and nothing else: a guard
    joined by `and` or `or` to another condition (`sys.platform != "win32" and x > 3`) is
    no version or platform check: the tests can take it."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return checks_where(test.operand)
    if isinstance(test, ast.BoolOp):
        kinds = [checks_where(v) for v in test.values]
        return kinds[0] if all(k is not None for k in kinds) else None
    if isinstance(test, ast.Compare):
        sides = [test.left, *test.comparators]
        kinds = [_reads_where(s) for s in sides]
        if any(k is None and not _constant(s) for k, s in zip(kinds, sides, strict=True)):
            return None
        return next((k for k in kinds if k is not None), None)
    if isinstance(test, ast.Call) and not all(_constant(a) for a in test.args):
        return None  # sys.platform.startswith("win") and platform.system() are checks
    return _reads_where(test)
