"""The nox session that runs a project's tests, read from noxfile.py as a parser sees it
(the file is the head's code: it is never run by the gate's own process).

    session = nox_config.read(root, wanted=("tests",))   # a `tool_env.ToolEnv`, or None

The session is the first of `wanted` (what the workflow's `nox -s` names, without a
`-3.12` suffix), else of the file, that runs pytest (`session.run("pytest", ...)`, `"python",
"-m", "pytest"`). What it gives the tests: `session.env[...] = ...`, `session.env.update({...})`
and the run's `env={...}`; its `session.install(...)` arguments; the run's arguments. Only
literal strings count (and names bound at the top of the file to a literal list of them):
`*session.posargs` and computed values are nox's to know. nox passes the caller's whole
environment to the commands (`include_outer_env`), so nothing is filtered."""
from __future__ import annotations

import ast
import os
import re

from gate.execution import judged_files
from gate.outcomes import pytest_command
from gate.outcomes.tool_env import ToolEnv


def _strings(node: ast.expr, constants: dict[str, list[str]]) -> list[str] | None:
    """The strings an argument gives: a literal, a starred literal list, a starred name bound
    to one; None for anything else (`*session.posargs` gives nothing)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Starred):
        inner = node.value
        if isinstance(inner, ast.Name) and inner.id in constants:
            return constants[inner.id]
        if isinstance(inner, (ast.List, ast.Tuple)):
            found = [_strings(e, constants) for e in inner.elts]
            return [s for f in found if f is not None for s in f]
        return []
    return None


def _constants(tree: ast.Module) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and isinstance(node.value, (ast.List, ast.Tuple)):
            values = [e.value for e in node.value.elts
                      if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(values) == len(node.value.elts):
                out[node.targets[0].id] = values
    return out


def _literal_env(node: ast.expr | None) -> dict[str, str]:
    if not isinstance(node, ast.Dict):
        return {}
    return {k.value: v.value for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
            and isinstance(v, ast.Constant) and isinstance(v.value, str)}


def _is_session(fn: ast.FunctionDef) -> bool:
    for decorator in fn.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "session":
            return True
    return False


def _python(fn: ast.FunctionDef) -> str | None:
    for decorator in fn.decorator_list:
        for kw in decorator.keywords if isinstance(decorator, ast.Call) else []:
            if kw.arg in ("python", "py"):
                value = kw.value
                items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
                found = [e.value for e in items if isinstance(e, ast.Constant)
                         and isinstance(e.value, str) and re.fullmatch(r"3\.\d+", e.value)]
                return max(found, key=lambda v: int(v[2:])) if found else None
    return None


def _session(fn: ast.FunctionDef, constants: dict[str, list[str]]) -> ToolEnv | None:
    if not fn.args.args:
        return None
    me = fn.args.args[0].arg
    env: dict[str, str] = {}
    deps: list[str] = []
    args: tuple[str, ...] | None = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if (isinstance(target, ast.Subscript) and ast.unparse(target.value) == f"{me}.env"
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(node.value, ast.Constant)
                    and isinstance(target.slice.value, str)
                    and isinstance(node.value.value, str)):
                env[target.slice.value] = node.value.value
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner, method = ast.unparse(node.func.value), node.func.attr
        if owner == f"{me}.env" and method == "update" and node.args:
            env.update(_literal_env(node.args[0]))
        if owner != me:
            continue
        words = [w for a in node.args for w in (_strings(a, constants) or [])]
        if method == "install":
            deps += words
        elif method == "run" and args is None:
            found = pytest_command.pytest_args(list(words))
            if found is not None:
                args = tuple(found)
                env.update(_literal_env(next((k.value for k in node.keywords
                                              if k.arg == "env"), None)))
    if args is None:
        return None
    return ToolEnv("nox", fn.name, env, None, tuple(deps), args, _python(fn))


def read(root: str, wanted: tuple[str, ...] = ()) -> ToolEnv | None:
    """The nox session that runs the tests of the checkout at `root`; None without one."""
    text = judged_files.text(os.path.join(root, "noxfile.py"))
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    constants = _constants(tree)
    sessions = [s for s in (_session(fn, constants) for fn in tree.body
                            if isinstance(fn, ast.FunctionDef) and _is_session(fn)) if s]
    names = [re.sub(r"-\d+(?:\.\d+)*$", "", w) for w in wanted]
    return next((s for n in names for s in sessions if s.name == n), None) or next(
        iter(sessions), None)


def has_config(root: str) -> bool:
    return os.path.isfile(os.path.join(root, "noxfile.py"))
