"""check-config: changes that can weaken the checks themselves, compared as parsed data."""
from __future__ import annotations

import configparser
import fnmatch
import json
import posixpath
import re
from collections.abc import Callable
from typing import Optional, TypeVar

from ruamel.yaml.error import YAMLError

from gate import attributes, config_diff, generated, source, toml, workflow_diff
from gate.checks.common import from_findings
from gate.config_diff import show
from gate.context import DiffContext
from gate.diff import ChangedFile
from gate.models import CheckResult, Finding

ID = "check-config"
TITLE = "Checks not weakened"
EXPLANATION = """\
Flags changes to what decides how the code is checked: pytest, mypy, ruff, coverage and flake8
options (pyproject.toml, pytest.ini, tox.ini, setup.cfg, .coveragerc), package.json test and lint
scripts, Jest/Vitest/Mocha/Playwright configs, conftest.py hooks that change collection or
reporting, CI workflows (a job or step removed, continue-on-error, a new `if:`, a changed `run:`)
and the gate's own config. Files are compared as parsed data, so reformatting raises nothing and
each finding shows the old and the new value. A reviewer cares because the easiest way to make
checks pass is to check less. Resolve it by reverting the change, or by explaining in the pull
request why the new setting is right; changes to the gate's config only take effect once merged."""

Handler = Callable[[str, Optional[str], Optional[str], ChangedFile], "list[Finding]"]
Table = dict[str, object]
Sections = dict[str, Table]

PYPROJECT_TABLES = (
    ("tool.pytest", "pytest-config"), ("tool.mypy", "mypy-config"),
    ("tool.pyright", "pyright-config"), ("tool.ruff", "ruff-config"),
    ("tool.coverage", "coverage-config"), ("tool.gate", "gate-config"),
)
INI_FILES = ("pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "mypy.ini", ".mypy.ini",
             ".flake8", ".coveragerc")
SCRIPTS = ("test", "pretest", "posttest", "build", "prebuild", "lint", "typecheck")
SCRIPT_PREFIXES = ("test:", "build:", "lint:", "typecheck:")
RUNNER_KEYS = ("jest", "mocha", "ava", "c8", "nyc", "vitest")
RUNNER_FILES = ("jest.config.*", "vitest.config.*", "vitest.workspace.*", ".mocharc*",
                "ava.config.*", "playwright.config.*", "karma.conf.*")
CONFTEST_WORDS = re.compile(
    r"(?<![\w.])(?:collect_ignore_glob|collect_ignore|pytest_collection_modifyitems"
    r"|pytest_ignore_collect|pytest_collect_file|pytest_pycollect_makeitem"
    r"|pytest_runtest_makereport|pytest_runtest_protocol|pytest_runtest_call|pytest_runtestloop"
    r"|pytest_report_teststatus|pytest_sessionfinish|sys\s*\.\s*exit|os\s*\.\s*_exit"
    r"|pytest\s*\.\s*exit)\b"
)
PARSE_ERRORS = (ValueError, configparser.Error, YAMLError)  # TOML and JSON errors are ValueErrors
P = TypeVar("P")
GATE_NOTE = "ignored for this run: the gate reads its config from the base"
WEAKEN_NOTE = "this setting decides what the checks catch"


def _finding(path: str, line: int, rule: str, message: str) -> Finding:
    return Finding(path=path, line=line, rule=rule, severity="warning", message=message)


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


def _pyproject(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    out = []
    for table, rule in PYPROJECT_TABLES:
        note = GATE_NOTE if rule == "gate-config" else WEAKEN_NOTE
        for ch in config_diff.changes(config_diff.dig(base, table), config_diff.dig(head, table)):
            line = config_diff.toml_line(new, table, ch.key)
            out.append(_finding(path, line, rule, f"[{table}] {ch.key}: {show(ch.old)} -> "
                                f"{show(ch.new)}; {note}"))
    return out


def _gate_toml(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    return [
        _finding(path, config_diff.toml_line(new, "", ch.key), "gate-config",
                 f"{ch.key}: {show(ch.old)} -> {show(ch.new)}; {GATE_NOTE}")
        for ch in config_diff.changes(base, head)
    ]


def _ini_rule(name: str, section: str) -> str | None:
    if name == ".coveragerc" or section.startswith("coverage:"):
        return "coverage-config"
    if section in ("pytest", "tool:pytest"):
        return "pytest-config"
    if section == "mypy" or section.startswith("mypy-"):
        return "mypy-config"
    if section == "flake8":
        return "flake8-config"
    if name == "tox.ini" and (section == "testenv" or section.startswith("testenv:")):
        return "tox-config"
    return None


def _ini(path: str, base: Sections, head: Sections, new: str) -> list[Finding]:
    out = []
    name = posixpath.basename(path)
    for section in sorted(set(base) | set(head)):
        rule = _ini_rule(name, section)
        if rule is None:
            continue
        for ch in config_diff.changes(base.get(section, {}), head.get(section, {})):
            line = config_diff.ini_line(new, section, ch.key)
            out.append(_finding(path, line, rule, f"[{section}] {ch.key}: {show(ch.old)} -> "
                                f"{show(ch.new)}; {WEAKEN_NOTE}"))
    return out


def _json_object(text: str) -> dict[str, object]:
    data = json.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the document is not a JSON object")
    return data


def _watched_script(name: str) -> bool:
    return name in SCRIPTS or name.startswith(SCRIPT_PREFIXES)


def _package_json(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    out = []
    old_scripts, new_scripts = config_diff.dig(base, "scripts"), config_diff.dig(head, "scripts")
    for name in sorted(set(old_scripts) | set(new_scripts)):
        before, after = old_scripts.get(name), new_scripts.get(name)
        if _watched_script(name) and before != after:
            out.append(_finding(path, config_diff.json_line(new, ["scripts", name]),
                                "package-scripts", f'script "{name}": {show(before)} -> '
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
    split = source.split(path, new or "")
    if split is None:
        return []
    out: list[Finding] = []
    for number in sorted(f.added):
        line = split.lines.get(number)
        names = sorted({"".join(m.group().split()) for m in CONFTEST_WORDS.finditer(
            line.code if line else "")})
        out.extend(_finding(path, number, "conftest-hook", f"conftest.py adds `{name}`: it can "
                            "change which tests are collected, how results are reported or the "
                            "exit status; check it hides no failure") for name in names)
    return out


def _workflow_changes(path: str, base: Table, head: Table, new: str) -> list[Finding]:
    return [_finding(path, line, "workflow", message)
            for line, message in workflow_diff.compare(base, head, new)]


def _workflow(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    if new is None:
        return [_finding(path, 1, "workflow", f"{path} deleted: the checks it ran no longer run")]
    return _parsed(workflow_diff.load, _workflow_changes)(path, old, new, f)


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


def handler_for(path: str) -> Handler | None:
    """The comparison for a changed path, None when the file is not configuration."""
    name = posixpath.basename(path)
    if path == ".gitattributes":
        return _gitattributes
    if path.startswith(".github/workflows/") and name.endswith((".yml", ".yaml")):
        return _workflow
    if path.startswith(".github/actions/"):
        return _workflow if name in ("action.yml", "action.yaml") else _action_file
    if generated.is_generated(path):
        return None
    by_name: dict[str, Handler] = {"pyproject.toml": _parsed(toml.loads, _pyproject),
                                   "package.json": _parsed(_json_object, _package_json),
                                   "conftest.py": _conftest}
    if path == ".gate.toml":
        return _parsed(toml.loads, _gate_toml)
    if name in INI_FILES:
        return _parsed(config_diff.ini_sections, _ini)
    if any(fnmatch.fnmatch(name, pattern) for pattern in RUNNER_FILES):
        return _runner_file
    return by_name.get(name)


def run(ctx: DiffContext) -> CheckResult:
    files = [(f, h) for f in ctx.files if not f.binary
             for h in [handler_for(f.path)] if h is not None
             and (f.path.startswith(".github/") or not ctx.is_vendored(f.path))]
    paths = [f.path for f, _ in files]
    base, head = ctx.read(ctx.base, paths), ctx.read(ctx.head, paths)
    findings: list[Finding] = []
    for f, handler in files:
        findings.extend(handler(f.path, _decode(base[f.path]), _decode(head[f.path]), f))
    return from_findings(ID, TITLE, findings, clean="no change to test, lint or CI configuration",
                         found="{n} change(s) that can weaken the checks")


def _decode(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")
