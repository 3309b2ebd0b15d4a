"""check-config: changes that can weaken the checks themselves, compared as parsed data."""
from __future__ import annotations

import configparser
import fnmatch
import json
import posixpath
from collections.abc import Callable
from typing import Any, Optional, TypeVar

from ruamel.yaml.error import YAMLError

from gate import (
    attributes,
    config_diff,
    conftest_hooks,
    generated,
    git,
    makefile,
    package_scripts,
    precommit_diff,
    python_config_diff,
    toml,
    tsconfig_diff,
    workflow_diff,
)
from gate.checks.common import from_findings
from gate.config_diff import ABSENT, show
from gate.context import DiffContext
from gate.diff import ChangedFile
from gate.models import CheckResult, Finding, Severity

ID = "check-config"
TITLE = "Checks not weakened"
EXPLANATION = """\
Flags changes to what decides how the code is checked: pytest, mypy, ruff, coverage and flake8
options (pyproject.toml, pytest.ini, tox.ini, setup.cfg, .coveragerc), package.json test, build
and lint scripts and every script they run, Jest/Vitest/Mocha/Playwright configs, tsconfig
strictness, the Makefile's `test` and `check` recipes, pre-commit hooks removed or narrowed,
conftest.py hooks that change collection or reporting, CI workflows (a job or step removed,
continue-on-error, a new `if:`, a changed `run:`), the gate's own step in a workflow (its inputs,
continue-on-error, its removal: rule `gate-step`) and the gate's own config. Files are compared
as parsed data, so reformatting raises nothing and each finding shows the old and the new value.
A reviewer cares because the easiest way to make checks pass is to check less. Resolve it by
reverting the change, or by explaining in the pull request why the new setting is right; changes
to the gate's config only take effect once merged."""

Handler = Callable[[str, Optional[str], Optional[str], ChangedFile], "list[Finding]"]
Table = dict[str, object]

MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
RUNNER_KEYS = ("jest", "mocha", "ava", "c8", "nyc", "vitest")
RUNNER_FILES = ("jest.config.*", "vitest.config.*", "vitest.workspace.*", ".mocharc*",
                "ava.config.*", "playwright.config.*", "karma.conf.*")
PARSE_ERRORS = (ValueError, configparser.Error, YAMLError)  # TOML and JSON errors are ValueErrors
P = TypeVar("P")
GATE_NOTE, WEAKEN_NOTE = python_config_diff.GATE_NOTE, python_config_diff.WEAKEN_NOTE


def _finding(path: str, line: int, rule: str, message: str,
             severity: Severity = "warning") -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=severity, message=message)


def _unparsable(path: str, error: Exception) -> list[Finding]:
    reason = " ".join(str(error).split())[:160]
    return [_finding(path, 1, "config-unparsable", f"{path} does not parse at head ({reason}): "
                     "the gate cannot compare it with the base; fix the file")]


def _both(parse: Callable[[str], P], old: str | None, new: str | None) -> tuple[P, P] | Exception:
    """Both sides parsed (an absent file as ""); the head's parse error, or a base that does
    not parse read as empty."""
    try:
        head = parse(new or "")
    except PARSE_ERRORS as e:
        return e
    try:
        return parse(old or ""), head
    except PARSE_ERRORS:
        return parse(""), head


def _parsed(parse: Callable[[str], P], compare: Callable[[str, P, P, str], list[Finding]],
            ) -> Handler:
    """A handler that compares both sides parsed; a head that does not parse is one finding."""
    def handler(path: str, old: str | None, new: str | None, _f: ChangedFile) -> list[Finding]:
        parsed = _both(parse, old, new)
        if isinstance(parsed, Exception):
            return _unparsable(path, parsed)
        return compare(path, parsed[0], parsed[1], new or "")
    return handler


def _python_config(compare: Callable[[str, Any, Any, str], list[python_config_diff.Change]],
                   ) -> Callable[[str, Any, Any, str], list[Finding]]:
    def findings(path: str, base: Any, head: Any, new: str) -> list[Finding]:
        return [_finding(path, line, rule, message)
                for line, rule, message in compare(path, base, head, new)]
    return findings


def _json_object(text: str) -> dict[str, object]:
    data = json.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the document is not a JSON object")
    return data


def _package_json(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    out = []
    old_scripts, new_scripts = config_diff.dig(base, "scripts"), config_diff.dig(head, "scripts")
    callers = {**package_scripts.watched(new_scripts), **package_scripts.watched(old_scripts)}
    for name in sorted(callers):
        before, after = old_scripts.get(name, ABSENT), new_scripts.get(name, ABSENT)
        if before != after:
            via = "" if callers[name] == name else f' (run by "{callers[name]}")'
            out.append(_finding(path, config_diff.json_line(new, ["scripts", name]),
                                "package-scripts", f'script "{name}"{via}: {show(before)} -> '
                                f"{show(after)}; {WEAKEN_NOTE}"))
    for key in RUNNER_KEYS:
        before_table = {key: base[key]} if key in base else {}
        after_table = {key: head[key]} if key in head else {}
        for ch in config_diff.changes(before_table, after_table):
            line = config_diff.json_line(new, ch.key.split("."))
            out.append(_finding(path, line, "test-runner-config",
                                f"{ch.key}: {show(ch.old)} -> {show(ch.new)}; {WEAKEN_NOTE}"))
    return out


def _first_line(f: ChangedFile) -> int:
    return min(f.added) if f.added else 1


def _runner_file(path: str, _old: str | None, _new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, _first_line(f), "test-runner-config",
                     f"test runner config {f.status}: it decides which tests run and how "
                     "failures count; review the change")]


def _conftest(path: str, _old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, number, "conftest-hook", f"conftest.py adds `{name}`: it can change "
                     "which tests are collected, how results are reported or the exit status; "
                     "check it hides no failure")
            for number, name in conftest_hooks.added(path, new or "", f.added)]


def _changes(rule: str, compare: Callable[[Table, Table, str], list[tuple[int, str]]],
             ) -> Callable[[str, Table, Table, str], list[Finding]]:
    """A comparison of (head line, message) pairs as findings of `rule`."""
    def findings(path: str, base: Table, head: Table, new: str) -> list[Finding]:
        return [_finding(path, line, rule, message) for line, message in compare(base, head, new)]
    return findings


def _workflow_changes(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    return [_finding(path, line, rule, message, "error" if rule == "gate-step" else "warning")
            for line, rule, message in workflow_diff.compare(base, head, new)]


def _workflow(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    if new is None:
        deleted = _finding(path, 1, "workflow", f"{path} deleted: the checks it ran no longer run")
        gone = [change for where, steps in workflow_diff.all_steps(_loaded(old))
                for change in workflow_diff.gate_steps_removed(where, steps, 1)]
        return [deleted, *(_finding(path, line, rule, message, "error")
                           for line, rule, message in gone)]
    return _parsed(workflow_diff.load, _workflow_changes)(path, old, new, f)


def _loaded(text: str | None) -> Table:
    try:
        return workflow_diff.load(text or "")
    except PARSE_ERRORS:
        return {}


def _makefile(path: str, base: makefile.Makefile, head: makefile.Makefile,
              _new: str) -> list[Finding]:
    return [_finding(path, line, "makefile", f"{message}; {WEAKEN_NOTE}")
            for line, message in makefile.compare(base, head)]


def _precommit(paths: Callable[[], list[str]]) -> Handler:
    def compare(path: str, base: Table, head: Table, new: str) -> list[Finding]:
        return [_finding(path, line, "pre-commit-config", message)
                for line, message in precommit_diff.compare(base, head, new, paths())]
    return _parsed(workflow_diff.load, compare)


def _action_file(path: str, _old: str | None, _new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, _first_line(f), "workflow", f"file of a local action {f.status}: "
                     "it runs in CI; review what it now does")]


def _gitattributes(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    lines = (new or "").splitlines()
    out = []
    for rule in attributes.newly_marked(attributes.parse(old or ""), attributes.parse(new or "")):
        marks = ", ".join(sorted(a for a, on in rule.attrs.items() if on))
        line = next((i for i, t in enumerate(lines, 1) if t.split()[:1] == [rule.text]), 1)
        out.append(_finding(path, line, "gitattributes",
                            f"`{rule.text}` newly marked {marks}: skip and escape markers in "
                            "matching files are no longer scanned; check they are not tests"))
    return out


def _tsconfig(sides: Callable[[str], tuple[str | None, str | None]]) -> Handler:
    """tsconfig files compared with what each side inherits through `extends`; `sides` reads
    a path at base and at head."""
    def compare(path: str, base: Table, head: Table, new: str) -> list[Finding]:
        return [_finding(path, line, "tsconfig", message) for line, message in
                tsconfig_diff.compare(
                    tsconfig_diff.resolved(path, base, lambda p: sides(p)[0]),
                    tsconfig_diff.resolved(path, head, lambda p: sides(p)[1]), new)]

    def handler(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
        if old is None:  # a new tsconfig loosens nothing that was checked
            return []
        return _parsed(tsconfig_diff.load, compare)(path, old, new, f)
    return handler


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
        return _gitattributes
    if path.startswith(".github/workflows/") and name.endswith((".yml", ".yaml")):
        return _workflow
    if path.startswith(".github/actions/"):
        return _workflow if name in ("action.yml", "action.yaml") else _action_file
    if generated.is_generated(path):
        return None
    by_name: dict[str, Handler] = {"pyproject.toml": _parsed(toml.loads, _python_config(
                                       python_config_diff.pyproject)),
                                   "package.json": _parsed(_json_object, _package_json),
                                   "conftest.py": _conftest,
                                   ".pre-commit-config.yaml": _precommit(paths)}
    if name in MAKEFILES:
        return _parsed(makefile.parse, _makefile)
    if tsconfig_diff.is_tsconfig(name):
        return _tsconfig(sides)
    if path == ".gate.toml":
        return _parsed(toml.loads, _python_config(python_config_diff.gate_toml))
    if name in python_config_diff.INI_FILES:
        return _parsed(config_diff.ini_sections, _python_config(python_config_diff.ini))
    if any(fnmatch.fnmatch(name, pattern) for pattern in RUNNER_FILES):
        return _runner_file
    return by_name.get(name)


def run(ctx: DiffContext) -> CheckResult:
    tracked: list[list[str]] = []

    def paths() -> list[str]:  # listed once, when a file needs it
        if not tracked:
            tracked.append(git.ls_files(ctx.repo, ctx.head))
        return tracked[0]

    def sides(path: str) -> tuple[str | None, str | None]:
        return ctx.text(ctx.base, path), ctx.text(ctx.head, path)

    files = [(f, h) for f in ctx.files if not f.binary
             for h in [handler_for(f.path, paths, sides)] if h is not None
             and (f.path.startswith(".github/") or not ctx.is_vendored(f.path))]
    changed = [f.path for f, _ in files]
    base, head = ctx.read(ctx.base, changed), ctx.read(ctx.head, changed)
    findings: list[Finding] = []
    for f, handler in files:
        findings.extend(handler(f.path, _decode(base[f.path]), _decode(head[f.path]), f))
    return from_findings(ID, TITLE, findings, clean="no change to test, lint or CI configuration",
                         found="{n} change(s) that can weaken the checks")


def _decode(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")
