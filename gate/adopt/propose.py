"""`gate checks --propose`: a gate config proposed from what the repository has.

package.json scripts (build, test, typecheck required; lint optional), pyproject (pytest;
mypy and ruff when configured: required only when the detected install brings the tool, else
optional with a note saying what to add), Cargo.toml (cargo test; clippy optional), go.mod
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


def _python(root: str) -> list[UserCheck]:
    try:
        tool = toml.loads(_read(root, "pyproject.toml") or "").get("tool", {})
    except toml.TOMLDecodeError:
        tool = {}
    brought = detect.python_packages(root)
    return [UserCheck(name, run, required and dist in brought)
            for name, run, required, dist in _PYTHON_TOOLS
            if isinstance(tool, dict) and _configured(root, tool, name)]


def notes(root: str, checks: list[UserCheck]) -> list[str]:
    """What to know about the proposed checks: a tool the install does not bring."""
    if not detect.is_python(root):
        return []
    brought = detect.python_packages(root)
    return [f"`{c.name}` is proposed optional: the detected install does not bring {dist} "
            f"(add it to the tests' dependency group or extra, or set `install` in "
            f"[tool.gate], then make the check required)"
            for c in checks for name, _, _, dist in _PYTHON_TOOLS
            if c.name == name and dist not in brought]


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
