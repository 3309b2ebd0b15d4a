"""`gate checks --propose`: a gate config proposed from what the repository has.

package.json scripts (build, test, typecheck required; lint optional), pyproject (pytest;
mypy and ruff when configured and brought by the detected install; one it does not bring is
left out, with a note saying how to add it), Cargo.toml (cargo test; clippy optional), go.mod
(go test ./...; go vet), a Makefile (its check and test targets).
"""
from __future__ import annotations

import json
import os
import re
from typing import Any

from gate import toml
from gate.adopt import toml_edit
from gate.engine.config import UserCheck
from gate.outcomes import detect

_NPM_SCRIPTS = (("build", True), ("typecheck", True), ("lint", False))
_MAKE_TARGET = re.compile(r"^([A-Za-z][\w-]*)\s*:(?!=)", re.M)


def _read(root: str, name: str) -> str | None:
    try:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def _npm(root: str) -> list[UserCheck]:
    try:
        scripts = json.loads(_read(root, "package.json") or "{}").get("scripts", {})
    except (ValueError, AttributeError):
        return []
    if not isinstance(scripts, dict):
        return []
    return [UserCheck(name, f"npm run {name}", required)
            for name, required in _NPM_SCRIPTS if name in scripts]


# (check, its command, required where the install brings it, the distribution that brings it)
_PYTHON_TOOLS = (("mypy", "python -m mypy", True, "mypy"), ("ruff", "ruff check .", False, "ruff"))


def _configured(root: str, tool: dict[str, object], name: str) -> bool:
    files = {"mypy": ("mypy.ini",), "ruff": ("ruff.toml", ".ruff.toml")}[name]
    return name in tool or any(os.path.exists(os.path.join(root, n)) for n in files)


def _python_tools(root: str) -> list[tuple[str, str, bool, str]]:
    """The rows of `_PYTHON_TOOLS` whose tool the project configures."""
    try:
        tool = toml.loads(_read(root, "pyproject.toml") or "").get("tool", {})
    except toml.TOMLDecodeError:
        tool = {}
    return [row for row in _PYTHON_TOOLS
            if isinstance(tool, dict) and _configured(root, tool, row[0])]


def _python(root: str) -> list[UserCheck]:
    """The checks of the configured tools that the detected install brings: one it does not
    bring would fail every run with "command not found" (`notes` says how to add it)."""
    brought = detect.python_packages(root)
    return [UserCheck(name, run, required) for name, run, required, dist in _python_tools(root)
            if dist in brought]


def notes(root: str) -> list[str]:
    """What to know about the proposal: a configured tool the install does not bring, left
    out, and how to add its check."""
    if not detect.is_python(root):
        return []
    brought = detect.python_packages(root)
    return [f"`{name}` is not proposed: the detected install does not bring {dist}, so "
            f"`{run}` would not be found. To check it, add {dist} to the tests' dependency "
            f"group or extra (or set `install` in [tool.gate]), then add a check: "
            f"[[tool.gate.checks]] name = \"{name}\", run = \"{run}\""
            for name, run, _, dist in _python_tools(root) if dist not in brought]


def _make_targets(root: str) -> set[str]:
    return set(_MAKE_TARGET.findall(_read(root, "Makefile") or ""))


def propose(root: str) -> tuple[str | None, list[UserCheck]]:
    """The test command and the user checks that the files of `root` suggest."""
    checks: list[UserCheck] = []
    test = detect.test_command(root)
    if os.path.exists(os.path.join(root, "package.json")):
        checks += _npm(root)
    if detect.is_python(root):
        checks += _python(root)
    if os.path.exists(os.path.join(root, "Cargo.toml")):
        checks.append(UserCheck("clippy", "cargo clippy -- -D warnings", False))
    if os.path.exists(os.path.join(root, "go.mod")):
        checks.append(UserCheck("vet", "go vet ./...", True))
    targets = _make_targets(root)
    if "check" in targets:
        checks.append(UserCheck("make-check", "make check", True))
    if "test" in targets and test is None:
        test = "make test"
    return test, checks


def as_table(test: str | None, checks: list[UserCheck]) -> dict[str, Any]:
    """The proposal as the keys of a gate config: `test` and `[[checks]]`, where found."""
    table: dict[str, Any] = {"test": test} if test else {}
    rows = [{"name": c.name, "run": c.run, **({} if c.required else {"required": False})}
            for c in checks]
    if rows:
        table["checks"] = rows
    return table


def render(test: str | None, checks: list[UserCheck], table: str = "tool.gate") -> str:
    """TOML for pyproject.toml (`tool.gate`) or .gate.toml (`table=""`)."""
    text = toml_edit.table(table, as_table(test, checks))
    if test:
        return text
    header = f"[{table}]\n" if table else ""
    rest = text[len(header):]  # a blank line, then the checks, or nothing to say
    return header + '# test = "..."  # none detected\n' + (rest if rest.strip() else "")
