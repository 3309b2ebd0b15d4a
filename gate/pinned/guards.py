"""What a Python mutant's line sits in, read from the head's file: the statement to watch (the
lines that say it ran) and the guards around it that can keep every test from running it here.

- a version or platform check (`sys.version_info`, `sys.platform`, `os.name`, `platform.*`,
  `sys.implementation`), in either branch, at any depth: code for another Python or system.
  The condition must be such a check and nothing else (`not`, and `and`/`or` of such checks
  only): `if sys.platform != "win32" and x > 3` is taken by the tests as any `if`;
- an optional import: a name bound in a `try:` that imports it, whose `except ImportError`
  (or `ModuleNotFoundError`) handler binds it too, tested by an enclosing `if`. Whether that
  import fails here is asked by behaviour: the handler's first line is watched as well.

A guard only excuses a survivor that no test ran (the record says so): a guard the tests do
pass through is no excuse."""
from __future__ import annotations

import ast
import dataclasses

from gate.mutants import environment


@dataclasses.dataclass(frozen=True)
class Place:
    statement: frozenset[int]  # the lines of the mutated statement (its header, if compound)
    guard: str | None  # "version", "platform" or "optional-import" (None: none around it)
    handlers: frozenset[int]  # the optional imports' handler lines, whose run says they failed


def _names(node: ast.AST) -> set[str]:
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
    return out


def _optional_imports(tree: ast.AST) -> dict[str, int]:
    """Name -> the first line of the handler of the `try` that imports it and binds it again
    when the import fails."""
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        imported = {(a.asname or a.name).split(".")[0] for s in node.body
                    if isinstance(s, (ast.Import, ast.ImportFrom)) for a in s.names}
        imported |= {t.id for s in node.body if isinstance(s, ast.Assign)
                     for t in s.targets if isinstance(t, ast.Name)}
        for handler in node.handlers:
            caught = _names(handler.type) if handler.type is not None else set()
            if not caught & {"ImportError", "ModuleNotFoundError"} or not handler.body:
                continue
            bound = {t.id for s in handler.body if isinstance(s, ast.Assign)
                     for t in s.targets if isinstance(t, ast.Name)}
            for name in imported & bound:
                out.setdefault(name, handler.body[0].lineno)
    return out


def _statement(node: ast.stmt) -> frozenset[int]:
    """A simple statement's lines; a compound one's header (up to its body)."""
    body = getattr(node, "body", None)
    end = (body[0].lineno - 1 if isinstance(body, list) and body and isinstance(body[0], ast.stmt)
           else node.end_lineno or node.lineno)
    return frozenset(range(node.lineno, max(node.lineno, end) + 1))


def place(text: bytes, line: int) -> Place | None:
    """Where `line` of this Python file sits (None: it does not parse, or holds no statement)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    optional = _optional_imports(tree)
    found: ast.stmt | None = None
    guard: str | None = None
    handlers: set[int] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.stmt) or not (
                    child.lineno <= line <= (child.end_lineno or child.lineno)):
                continue
            if isinstance(child, ast.If) and line > (child.test.end_lineno or child.lineno):
                kind = environment.checks_where(child.test)
                kind = None if kind == "typing" else kind
                names = _names(child.test) & optional.keys()
                if kind is not None:
                    guard = guard or kind
                elif names:
                    guard = guard or "optional-import"
                    handlers |= {optional[n] for n in names}
            found = child
            todo.append(child)
    if found is None:
        return None
    return Place(_statement(found), guard, frozenset(handlers))
