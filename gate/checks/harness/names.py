"""Python names as the code means them: what an import binds a local name to, and an
expression as the dotted name it stands for (`b.AssertionError` is `builtins.AssertionError`
after `import builtins as b`; `__import__("builtins")` and `vars(builtins)` are `builtins`;
`getattr(m, "TestReport")` is `m.TestReport`; strings joined from constants count as spelt)."""
from __future__ import annotations

import ast
from collections.abc import Mapping

FRAMEWORKS = ("pytest", "_pytest", "unittest", "pluggy")


def import_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> the dotted name it stands for, from every import in the file."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def dotted_name(node: ast.AST, names: Mapping[str, str]) -> str:
    if isinstance(node, ast.Name):
        return names.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        return f"{dotted_name(node.value, names)}.{node.attr}"
    if isinstance(node, ast.Subscript):
        key = literal(node.slice)
        if key == "__builtins__" or key in FRAMEWORKS:  # globals()["__builtins__"]
            return key
        return dotted_name(node.value, names) + "[]"
    if isinstance(node, ast.Call):
        called = dotted_name(node.func, names)
        if called in ("__import__", "importlib.import_module") and node.args and literal(
                node.args[0]):  # __import__("builtins") is the module builtins
            return str(literal(node.args[0]))
        if called == "vars" and node.args:  # vars(builtins)["AssertionError"] = ...
            return dotted_name(node.args[0], names)
        if called == "getattr" and len(node.args) >= 2 and literal(node.args[1]):
            return f"{dotted_name(node.args[0], names)}.{literal(node.args[1])}"
        return called + "()"
    return ""


def root_of(dotted: str) -> str:
    return dotted.split(".")[0].split("[")[0]


def literal(node: ast.AST) -> str | None:
    """A string the code spells out: a constant, or constants joined (`"_py" + "test"`,
    `f"{'_py'}test"`, `"".join(["_py", "test"])`)."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal(node.left), literal(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [literal(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values]
        return "".join(p for p in parts if p is not None) if None not in parts else None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join" and len(node.args) == 1
            and isinstance(node.args[0], (ast.List, ast.Tuple))):
        sep = literal(node.func.value)
        items = [literal(e) for e in node.args[0].elts]
        if sep is not None and None not in items:
            return sep.join(i for i in items if i is not None)
    return None
