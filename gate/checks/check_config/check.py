"""check-config: changes that can weaken the checks themselves, compared as parsed data."""
from __future__ import annotations

import dataclasses
import fnmatch
import posixpath
from collections.abc import Callable
from typing import Any

from gate import toml
from gate.checks.check_config import (
    build_files,
    config_diff,
    go_mod,
    handlers,
    justfile,
    makefile,
    noxfile,
    package_manager,
    python_config_diff,
    search_files,
    taskfile,
    tsconfig_diff,
    workflow_diff,
)
from gate.checks.check_config.config_diff import RuledWeakening
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import generated
from gate.models import CheckResult, Finding
from gate.vcs import git
from gate.vcs.diff import ChangedFile

ID = "check-config"
TITLE = "Checks not weakened"
EXPLANATION = """\
Flags changes to what decides how the code is checked: pytest, mypy, ruff, coverage and flake8
options (pyproject.toml, pytest.toml, pytest.ini, tox.ini, setup.cfg, .coveragerc), what runs the
tests (tox in tox.ini, setup.cfg or `[tool.tox]`, hatch environments, pdm scripts, poe tasks, nox
sessions' `session.run` commands, Cargo.toml's `autotests`, `test = false` and `[[test]]` `harness`
switches: rules `tox-config`, `hatch-config`, `pdm-scripts`, `poe-tasks`, `nox-session`,
`cargo-test`), a go.work added or given a `use` or `replace`, and any change to `.cargo/config.toml`
(rules `go-workspace`, `cargo-config`: both are found by searching the directories above, and swap
what the tests build), go.mod's `replace` and `exclude` added, its `go`, `toolchain` and `godebug`
changed (rule `go-mod`), package.json test, build, lint and install lifecycle scripts
(`postinstall`, `prepare`...) and every script they run, the package managers' settings
(`.npmrc`, `.yarnrc.yml`, `pnpm-workspace.yaml`, `bunfig.toml`, compared as parsed data: rule
`package-manager-config`, for a `script-shell` or `node-options` changes how `npm test` runs),
Jest/Vitest/Mocha/Playwright configs, lint rules in package.json's `xo` and `eslintConfig` keys and
in `.golangci.yml` (rules `lint-config`, `golangci-config`), tsconfig strictness, the `test` and
`check` recipes of a Makefile, justfile or Taskfile.yml (and of any target that runs a test runner,
such as `go test` with its flags), pre-commit hooks removed or narrowed, conftest.py hooks that
change collection or reporting, CI workflows (a job or step removed, continue-on-error, a new `if:`,
a changed `run:`), the gate's own step in a workflow (its inputs, continue-on-error, its removal:
rule `gate-step`), the gate's own config, and a build or packaging file deleted or emptied
(setup.py, setup.cfg, pyproject's `[build-system]`, all of package.json's scripts, Cargo.toml,
go.mod, a Makefile, tox.ini, noxfile.py: rules `build-file-removed`, `build-system-removed`,
`package-scripts-removed`). Files are compared as parsed data, so reformatting raises nothing and
each finding shows the old and the new value. A reviewer cares because the easiest way to make
checks pass is to check less. Resolve it by reverting the change, or by explaining in the pull
request why the new setting is right; changes to the gate's config only take effect once merged."""

MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
JUSTFILES = ("justfile", "Justfile", ".justfile")
TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml")
RUNNER_FILES = ("jest.config.*", "vitest.config.*", "vitest.workspace.*", ".mocharc*",
                "ava.config.*", "playwright.config.*", "karma.conf.*")
GATE_NOTE = python_config_diff.GATE_NOTE
Handler = handlers.Handler


def _python(parse: Callable[[str], Any],
            compare: Callable[[str, Any, Any, str], list[RuledWeakening]]) -> Handler:
    return handlers.parsed(parse, handlers.python_config(compare))


def _nothing(_path: str) -> tuple[str | None, str | None]:
    return None, None


def handler_for(path: str, paths: Callable[[], list[str]] = list,
                sides: Callable[[str], tuple[str | None, str | None]] = _nothing,
                ) -> Handler | None:
    """The comparison for a changed path, None when the file is not configuration; `paths`
    lists the files tracked at head (for pre-commit's file patterns), `sides` reads another
    file at base and at head (for what a tsconfig extends)."""
    name = posixpath.basename(path)
    if path == ".gitattributes":
        return handlers.gitattributes
    if path.startswith(".github/workflows/") and name.endswith((".yml", ".yaml")):
        return handlers.workflow
    if path.startswith(".github/actions/"):
        return handlers.workflow if name in ("action.yml", "action.yaml") else handlers.action_file
    if generated.is_generated(path):
        return None
    by_name: dict[str, Handler] = {
        "pyproject.toml": _python(toml.loads, python_config_diff.pyproject),
        "pytest.toml": _python(toml.loads, python_config_diff.pytest_toml),
        ".pytest.toml": _python(toml.loads, python_config_diff.pytest_toml),
        "package.json": handlers.parsed(handlers.json_object, handlers.package_json),
        "conftest.py": handlers.conftest,
        ".pre-commit-config.yaml": handlers.precommit(paths),
        "Cargo.toml": handlers.parsed(toml.loads, handlers.cargo_manifest),
        "noxfile.py": handlers.parsed(noxfile.parse, handlers.nox_sessions),
        ".golangci.yml": handlers.parsed(workflow_diff.load, handlers.golangci),
        ".golangci.yaml": handlers.parsed(workflow_diff.load, handlers.golangci),
    }
    if name in MAKEFILES:
        return handlers.parsed(makefile.parse, handlers.makefile_recipes)
    if name in JUSTFILES:
        return handlers.parsed(justfile.parse, handlers.makefile_recipes)
    if name in TASKFILES:
        return handlers.parsed(taskfile.parse, handlers.makefile_recipes)
    if tsconfig_diff.is_tsconfig(name):
        return handlers.tsconfig(sides)
    if path == ".gate.toml":
        return _python(toml.loads, python_config_diff.gate_toml)
    if name in python_config_diff.INI_FILES:
        return _python(config_diff.ini_sections, python_config_diff.ini)
    if any(fnmatch.fnmatch(name, pattern) for pattern in RUNNER_FILES):
        return handlers.runner_file
    if name in package_manager.FILES:
        return handlers.parsed(lambda text: package_manager.parse(name, text),
                               package_manager.compare)
    if name == search_files.GO_WORK:
        return search_files.go_work
    if name == "go.mod":
        return go_mod.go_mod
    if search_files.is_cargo_config(path):
        return search_files.cargo_config
    return by_name.get(name)


def run(ctx: DiffContext) -> CheckResult:
    tracked: list[list[str]] = []

    def paths() -> list[str]:  # listed once, when a file needs it
        if not tracked:
            tracked.append(git.ls_files(ctx.repo, ctx.head))
        return tracked[0]

    def sides(path: str) -> tuple[str | None, str | None]:
        return ctx.text(ctx.base, path), ctx.text(ctx.head, path)

    renamed = workflow_diff.renamed_files(ctx.files)
    files = [(f, h) for f in ctx.files if not f.binary and f.path not in renamed
             for h in [handler_for(f.path, paths, sides)] if h is not None
             and (f.path.startswith(".github/") or not ctx.is_vendored(f.path))]
    changed = [f.path for f, _ in files]
    old = {new: was for was, new in renamed.items()}
    base = ctx.read(ctx.base, [old.get(f.path, f.path) for f, _ in files])
    head = ctx.read(ctx.head, changed)
    findings: list[Finding] = []
    for f, handler in files:
        new = _decode(head[f.path])
        found = handler(f.path, _decode(base[old.get(f.path, f.path)]), new, f)
        findings.extend(_restructured(f, [_pinned(x, f, new or "") for x in found]))
    findings.extend(build_files.findings(ctx))
    return from_findings(ID, TITLE, findings, clean="no change to test, lint or CI configuration",
                         found="{n} change(s) that can weaken the checks")


# Rules whose line the handler chose on purpose: the line the parser names for a file that does not
# parse, a make target's header (its recipe is what follows), a workflow's key by its YAML path,
# a tsconfig option removed at the compilerOptions that held it
_PINNED_BY_HANDLER = ("config-unparsable", "makefile", "workflow", "gate-step", "tsconfig")
RESTRUCTURE = 6  # this many settings of one kind changed in one file read as one restructure


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _pinned(finding: Finding, f: ChangedFile, new: str) -> Finding:
    """A finding on a line the change did not touch moved to the line that changed: inside a
    multi-line value (tox's `deps =` with the URL changed on its 9th line), the first changed
    line of the value; a removed key, which has no head line, at the file's first change."""
    if finding.line in f.added or not f.added or finding.rule in _PINNED_BY_HANDLER:
        return finding
    lines = new.split("\n")
    if 0 < finding.line <= len(lines) and finding.line != 1:
        top = _indent(lines[finding.line - 1])
        for number in range(finding.line + 1, len(lines) + 1):
            text = lines[number - 1]
            if text.strip() and _indent(text) <= top:
                break
            if number in f.added:
                return dataclasses.replace(finding, line=number, end_line=None)
        return finding
    return dataclasses.replace(finding, line=min(f.added), end_line=None)


def _restructured(f: ChangedFile, found: list[Finding]) -> list[Finding]:
    """Many settings of one kind changed in one file at once: one finding that lists them, at
    the first changed line, not one per key (84 findings for one moved table)."""
    by_rule: dict[str, list[Finding]] = {}
    for finding in found:
        by_rule.setdefault(finding.rule, []).append(finding)
    out: list[Finding] = []
    for rule, group in by_rule.items():
        if len(group) < RESTRUCTURE:
            out.extend(group)
            continue
        shown = "; ".join(g.message.split("; ")[0] for g in group[:3])
        line = min((g.line for g in group if g.line in f.added), default=group[0].line)
        out.append(Finding(f.path, line, rule, f"{len(group)} settings changed at once (a "
                           f"restructure): {shown}; and {len(group) - 3} more; review the "
                           "file's before and after", severity=max(
                               (g.severity for g in group), key=_SEVERITIES.index)))
    return out


_SEVERITIES = ("notice", "warning", "error")


def _decode(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")
