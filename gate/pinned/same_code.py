"""Whether a changed Python file changed only in its docstrings and comments: then it is no
code change for `pinned` (no mutant, no `passes-at-base`). Compared as parsed code: the
base's and the head's syntax trees with every docstring (the first string of a module, class
or function body) taken out, positions left aside. A file either side does not parse is
code changed."""
from __future__ import annotations

import ast


def _without_docstrings(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def only_docs(path: str, base: bytes | None, head: bytes | None) -> bool:
    """Whether `path` (Python) differs between `base` and `head` only in docstrings and
    comments (False for any other file, or an added or deleted one)."""
    if not path.endswith(".py") or base is None or head is None:
        return False
    try:
        return _without_docstrings(ast.parse(base)) == _without_docstrings(ast.parse(head))
    except (SyntaxError, ValueError):
        return False
