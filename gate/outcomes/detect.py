"""The install and test commands a project implies, read from the files of a checkout."""
from __future__ import annotations

import glob
import json
import os
import re
import shlex

from gate import toml
from gate.execution import installer, judged_files
from gate.outcomes import ci_env, ci_paths, extras_for_tests


def _exists(root: str, *names: str) -> bool:
    return any(os.path.exists(os.path.join(root, n)) for n in names)


def _pyproject(root: str) -> dict[str, object]:
    try:  # the install may have left a FIFO there: read only a file
        return toml.loads(judged_files.text(os.path.join(root, "pyproject.toml")) or "")
    except toml.TOMLDecodeError:
        return {}


def is_python(root: str) -> bool:
    return _exists(root, "pyproject.toml", "setup.py", "setup.cfg") or bool(
        glob.glob(os.path.join(root, "requirements*.txt"))
    )


def _dependency_group(data: dict[str, object], name: str) -> list[str] | None:
    """A PEP 735 dependency group, with `include-group` entries expanded."""
    groups = data.get("dependency-groups")
    if not isinstance(groups, dict) or name not in groups:
        return None
    out: list[str] = []
    for item in groups[name]:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            out.extend(_dependency_group(data, item["include-group"]) or [])
    return out


def _uv_default_groups(data: dict[str, object]) -> set[str]:
    tool = data.get("tool")
    uv = tool.get("uv") if isinstance(tool, dict) else None
    default = uv.get("default-groups") if isinstance(uv, dict) else None
    return {g for g in default if isinstance(g, str)} if isinstance(default, list) else {"dev"}


def _python_install(root: str) -> str:
    data = _pyproject(root)
    project = data.get("project")
    extras = project.get("optional-dependencies", {}) if isinstance(project, dict) else {}
    groups = data.get("dependency-groups")
    wanted = extras_for_tests.needs(root, set(extras) if isinstance(extras, dict) else set(),
                              set(groups) if isinstance(groups, dict) else set())
    uv = installer.find_uv()
    if _exists(root, "uv.lock") and uv:
        more = [*(f"--extra {shlex.quote(e)}" for e in wanted.extras),
                *(f"--group {shlex.quote(g)}" for g in wanted.groups
                  if g not in _uv_default_groups(data))]
        return " ".join([f'UV_PROJECT_ENVIRONMENT="$VIRTUAL_ENV" {shlex.quote(uv)} sync '
                         "--locked", *more])
    if _exists(root, "poetry.lock"):
        return "poetry install --no-interaction"
    pip = installer.pip_install()
    requirements = sorted(os.path.basename(p)
                          for p in glob.glob(os.path.join(root, "requirements*.txt")))
    deps = "".join(f" {shlex.quote(d)}" for d in _tool_deps(root))
    if _exists(root, "pyproject.toml", "setup.py"):
        target = "." if not wanted.extras else shlex.quote(f".[{','.join(wanted.extras)}]")
        grouped = [r for g in wanted.groups for r in _dependency_group(data, g) or []]
        if wanted.extras or grouped:
            return " ".join([pip, "-e", target, *(shlex.quote(r) for r in grouped)]) + deps
        reqs = "".join(f" -r {shlex.quote(r)}" for r in requirements)
        return f"{pip} -e .{reqs}{deps} pytest"
    return pip + "".join(f" -r {shlex.quote(r)}" for r in requirements) + deps + " pytest"


def _tool_deps(root: str) -> tuple[str, ...]:
    """What the tox environment or nox session that runs the tests installs beyond the
    project (`-r requirements/tests.txt`, `pytest-asyncio`): the project itself (`.`,
    `-e .[x]`), which the command installs anyway, left out."""
    through = ci_env.tool(root)
    words = list(through.deps if through else ())
    out: list[str] = []
    for i, word in enumerate(words):
        if word in (".", "-e") or word.startswith((".[", "./", "-e.")) or (
                i > 0 and words[i - 1] == "-e" and word.startswith(".")):
            continue
        out.append(word)
    return tuple(out)


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(@]", requirement.strip(), maxsplit=1)[0].lower().replace(
        "_", "-")


def python_packages(root: str) -> set[str]:
    """The distributions the detected install of a Python project names (not what they
    depend on): the project's dependencies, the tests' extras and groups (and uv's default
    groups under uv.lock), its requirements files where the command installs them, pytest
    where it adds it. Empty for a project it installs with poetry (not read)."""
    data = _pyproject(root)
    project = data.get("project")
    project = project if isinstance(project, dict) else {}
    extras = project.get("optional-dependencies", {})
    extras = extras if isinstance(extras, dict) else {}
    groups = data.get("dependency-groups")
    groups = groups if isinstance(groups, dict) else {}
    wanted = extras_for_tests.needs(root, set(extras), set(groups))
    command = install_command(root) or ""
    names = [r for r in project.get("dependencies", []) if isinstance(r, str)]
    names += [r for e in wanted.extras for r in extras.get(e, []) if isinstance(r, str)]
    chosen = set(wanted.groups) | (_uv_default_groups(data) if "sync --locked" in command
                                   else set())
    names += [r for g in sorted(chosen) for r in _dependency_group(data, g) or []]
    for path in glob.glob(os.path.join(root, "requirements*.txt")):
        if os.path.basename(path) in command:
            names += [line for line in (judged_files.text(path) or "").splitlines()
                      if line.strip() and line.strip()[0].isalnum()]
    if command.endswith(" pytest"):
        names.append("pytest")
    return {_name(r) for r in names if _name(r)}


def _pinned(path: str) -> bool:
    lines = [line.split("#", 1)[0].strip()
             for line in (judged_files.text(path) or "").splitlines()]
    reqs = [line for line in lines if line and not line.startswith("-")]
    return bool(reqs) and all("==" in r or "@" in r for r in reqs)


def install_reason(root: str) -> str:
    """Which installer the detected install of a Python project uses, and what decides the
    versions it installs (for the install check's summary); "" for other projects."""
    if not is_python(root):
        return ""
    uv = installer.find_uv() is not None
    if _exists(root, "uv.lock"):
        return ("uv: uv.lock decides the versions" if uv else
                "pip: uv is not found (or GATE_NO_UV is set), so uv.lock is not read and the "
                "versions are the newest the project allows; install uv for the locked ones")
    if _exists(root, "poetry.lock"):
        return "poetry: poetry.lock decides the versions"
    tool = "uv pip" if uv else "pip (uv not found)"
    pins = glob.glob(os.path.join(root, "requirements*.txt"))
    if pins and all(_pinned(p) for p in pins):
        return f"{tool}: the pins of the requirements files decide the versions"
    return f"{tool}: no lockfile, so the newest versions the project allows"


def install_command(root: str) -> str | None:
    """The command that installs the project from scratch; None when none is needed."""
    if is_python(root):
        return _python_install(root)
    if _exists(root, "package-lock.json", "npm-shrinkwrap.json"):
        return "npm ci"
    if _exists(root, "pnpm-lock.yaml"):
        return "pnpm install --frozen-lockfile"
    if _exists(root, "yarn.lock"):
        return "yarn install --frozen-lockfile"
    if _exists(root, "bun.lock", "bun.lockb"):
        return "bun install --frozen-lockfile"
    if _exists(root, "package.json"):
        return "npm install"
    return None


def test_command(root: str) -> str | None:
    """The command that runs the whole suite; None when nothing says how. pytest gets as
    `testpaths` the directories the project's CI and tox name to it, where its configuration
    sets none (`ci_paths`): the suite the project runs, and no path of its own, so that the
    gate can still append test files to it."""
    if is_python(root):
        dirs = ci_paths.testpaths(root)
        kept = "".join(f" {shlex.quote(o)}" for o in ci_paths.options(root))
        return "python -m pytest" + kept + (
            " -o " + shlex.quote("testpaths=" + " ".join(dirs)) if dirs else "")
    if _exists(root, "package.json"):
        try:
            scripts = json.loads(judged_files.text(os.path.join(root, "package.json")) or
                                 "").get("scripts", {})
        except (ValueError, AttributeError):
            scripts = {}
        if isinstance(scripts, dict) and "test" in scripts:
            return "npm test"
    if _exists(root, "Cargo.toml"):
        return "cargo test"
    if _exists(root, "go.mod"):
        return "go test ./..."
    return None
