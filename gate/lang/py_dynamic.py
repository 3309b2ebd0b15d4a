"""A test framework's attribute fetched by a computed name (`getattr(pytest, "sk" + "ip")`):
the static marker rules cannot read it, so it is a warning of its own. The run itself catches
the skip (the base outcomes comparison); this says where it came from."""
from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

FRAMEWORKS = ("pytest", "unittest")


def _modules(tree: ast.Module) -> dict[str, str]:
    """Local names bound to pytest or unittest (or something inside them) by the imports."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in FRAMEWORKS:
                    out[a.asname or a.name.split(".")[0]] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and (
                node.module.split(".")[0] in FRAMEWORKS):
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _root(node: ast.AST, names: Mapping[str, str]) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return names.get(node.id) if isinstance(node, ast.Name) else None


def computed_getattrs(text: str, lines: Mapping[int, str]) -> Iterator[tuple[int, str]]:
    """(line, framework object) for each `getattr` on pytest or unittest with a name that is
    not a literal, on the added `lines`."""
    if "getattr" not in text:
        return
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    names = _modules(tree)
    if not names:
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "getattr" and len(node.args) >= 2
                and node.lineno in lines
                and not isinstance(node.args[1], ast.Constant)):
            target = _root(node.args[0], names)
            if target is not None:
                yield node.lineno, target
