"""check-config's comparisons, one per kind of file: each takes a changed path, its base and
head texts and its diff, and returns findings."""
from __future__ import annotations

import configparser
import json
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ruamel.yaml.error import YAMLError

from gate.checks.check_config import (
    cargo,
    config_diff,
    conftest_hooks,
    makefile,
    noxfile,
    package_scripts,
    precommit_diff,
    python_config_diff,
    tsconfig_diff,
    workflow_diff,
)
from gate.checks.check_config.config_diff import ABSENT, RuledWeakening
from gate.models import Finding, Severity
from gate.vcs import attributes
from gate.vcs.diff import ChangedFile

Handler = Callable[[str, str | None, str | None, ChangedFile], "list[Finding]"]
Table = dict[str, object]

RUNNER_KEYS = ("jest", "mocha", "ava", "c8", "nyc", "vitest")
LINT_KEYS = ("xo", "eslintConfig")  # linters configured in package.json: rules turned off there
PARSE_ERRORS = (ValueError, configparser.Error, YAMLError)  # TOML and JSON errors are ValueErrors
P = TypeVar("P")
WEAKEN_NOTE = python_config_diff.WEAKEN_NOTE


def _finding(path: str, line: int, rule: str, message: str,
             severity: Severity = "warning") -> Finding:
    return Finding(path=path, line=line, rule=rule, severity=severity, message=message)


_ERROR_LINE = re.compile(r"\bline (\d+)")  # where tomllib, json, YAML and configparser say


def _unparsable(path: str, error: Exception) -> list[Finding]:
    """One finding at the line the parser names (else line 1)."""
    reason = " ".join(str(error).split())[:160]
    at = _ERROR_LINE.search(str(error))
    line = int(at.group(1)) if at else 1
    return [_finding(path, line, "config-unparsable", f"{path} does not parse at head ({reason}): "
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


def parsed(parse: Callable[[str], P], compare: Callable[[str, P, P, str], list[Finding]],
            ) -> Handler:
    """A handler that compares both sides parsed; a head that does not parse is one finding."""
    def handler(path: str, old: str | None, new: str | None, _f: ChangedFile) -> list[Finding]:
        parsed = _both(parse, old, new)
        if isinstance(parsed, Exception):
            return _unparsable(path, parsed)
        return compare(path, parsed[0], parsed[1], new or "")
    return handler


def python_config(compare: Callable[[str, Any, Any, str], list[RuledWeakening]],
                   ) -> Callable[[str, Any, Any, str], list[Finding]]:
    def findings(path: str, base: Any, head: Any, new: str) -> list[Finding]:
        return [_finding(path, line, rule, message)
                for line, rule, message in compare(path, base, head, new)]
    return findings


def json_object(text: str) -> dict[str, object]:
    data = json.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the document is not a JSON object")
    return data


def package_json(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    out = []
    old_scripts, new_scripts = config_diff.dig(base, "scripts"), config_diff.dig(head, "scripts")
    callers = {**package_scripts.watched(new_scripts), **package_scripts.watched(old_scripts)}
    for name in sorted(callers):
        before, after = old_scripts.get(name, ABSENT), new_scripts.get(name, ABSENT)
        if before != after:
            via = "" if callers[name] == name else f' (run by "{callers[name]}")'
            out.append(_finding(path, config_diff.json_line(new, ["scripts", name]),
                                "package-scripts", f'script "{name}"{via}: '
                                f"{config_diff.show_change(before, after)}; {WEAKEN_NOTE}"))
    for key in RUNNER_KEYS:
        before_table = {key: base[key]} if key in base else {}
        after_table = {key: head[key]} if key in head else {}
        for ch in config_diff.changes(before_table, after_table):
            line = config_diff.json_line(new, ch.key.split("."))
            out.append(_finding(path, line, "test-runner-config",
                                f"{ch.key}: {config_diff.show_change(ch.old, ch.new)}; "
                                f"{WEAKEN_NOTE}"))
    for key in LINT_KEYS:
        before_table = {key: base[key]} if key in base else {}
        after_table = {key: head[key]} if key in head else {}
        for ch in config_diff.changes(before_table, after_table):
            out.append(_finding(path, config_diff.json_line(new, ch.key.split(".")),
                                "lint-config", f"{ch.key}: "
                                f"{config_diff.show_change(ch.old, ch.new)}; {WEAKEN_NOTE}"))
    return out


def yaml_line(text: str, keys: Sequence[str]) -> int:
    """The line of the deepest of the nested `keys` found in a YAML text, else 1."""
    steps = [re.compile(rf"^\s*(?:-\s*)?[\"']?{re.escape(key)}[\"']?\s*:") for key in keys]
    return config_diff.line_of(text, steps) or 1


def golangci(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    """golangci-lint's config: linters, their settings, exclusions, compared as parsed data."""
    return [_finding(path, yaml_line(new, ch.key.split(".")), "golangci-config",
                     f"{ch.key}: {config_diff.show_change(ch.old, ch.new)}; {WEAKEN_NOTE}")
            for ch in config_diff.changes(base, head)]


def _first_line(f: ChangedFile) -> int:
    return min(f.added) if f.added else 1


def runner_file(path: str, _old: str | None, _new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, _first_line(f), "test-runner-config",
                     f"test runner config {f.status}: it decides which tests run and how "
                     "failures count; review the change")]


def conftest(path: str, _old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, number, "conftest-hook", f"conftest.py adds `{name}`: it can change "
                     "which tests are collected, how results are reported or the exit status; "
                     "check it hides no failure")
            for number, name in conftest_hooks.added(path, new or "", f.added)]


def _workflow_changes(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    return [_finding(path, line, rule, message, "error" if rule == "gate-step" else "warning")
            for line, rule, message in workflow_diff.compare(base, head, new)]


def workflow(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    if new is None:
        deleted = _finding(path, 1, "workflow", f"{path} deleted: the checks it ran no longer run")
        gone = [change for where, steps in workflow_diff.all_steps(_loaded(old))
                for change in workflow_diff.gate_steps_removed(where, steps, 1)]
        return [deleted, *(_finding(path, line, rule, message, "error")
                           for line, rule, message in gone)]
    return parsed(workflow_diff.load, _workflow_changes)(path, old, new, f)


def _loaded(text: str | None) -> Table:
    try:
        return workflow_diff.load(text or "")
    except PARSE_ERRORS:
        return {}


def makefile_recipes(path: str, base: makefile.Makefile, head: makefile.Makefile,
              _new: str) -> list[Finding]:
    return [_finding(path, line, "makefile", f"{message}; {WEAKEN_NOTE}")
            for line, message in makefile.compare(base, head)]


def precommit(paths: Callable[[], list[str]]) -> Handler:
    def compare(path: str, base: Table, head: Table, new: str) -> list[Finding]:
        return [_finding(path, line, "pre-commit-config", message)
                for line, message in precommit_diff.compare(base, head, new, paths())]
    return parsed(workflow_diff.load, compare)


def action_file(path: str, _old: str | None, _new: str | None, f: ChangedFile) -> list[Finding]:
    return [_finding(path, _first_line(f), "workflow", f"file of a local action {f.status}: "
                     "it runs in CI; review what it now does")]


def gitattributes(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    lines = (new or "").splitlines()
    out = []
    for rule in attributes.newly_marked(attributes.parse(old or ""), attributes.parse(new or "")):
        marks = ", ".join(sorted(a for a, on in rule.attrs.items() if on))
        line = next((i for i, t in enumerate(lines, 1) if t.split()[:1] == [rule.text]), 1)
        out.append(_finding(path, line, "gitattributes",
                            f"`{rule.text}` newly marked {marks}: skip and escape markers in "
                            "matching files are no longer scanned; check they are not tests"))
    return out


def tsconfig(sides: Callable[[str], tuple[str | None, str | None]]) -> Handler:
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
        return parsed(tsconfig_diff.load, compare)(path, old, new, f)
    return handler


def cargo_manifest(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    return [_finding(path, line, "cargo-test", message)
            for line, message in cargo.compare(base, head, new)]


def nox_sessions(path: str, base: noxfile.Sessions, head: noxfile.Sessions,
                 _new: str) -> list[Finding]:
    return [_finding(path, line, "nox-session", f"{message}; {WEAKEN_NOTE}")
            for line, message in noxfile.compare(base, head)]
