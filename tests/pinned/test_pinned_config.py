"""pinned's mode and budget: the config keys, `--pinned` over them, and the check skipped when
off or when the suite did not pass (before any run)."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.change import Change, Options, prepare
from gate.engine.progress import Progress
from gate.engine.verdict import decide
from gate.errors import GateError
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult, Finding, Report, Severity
from gate.pinned import step
from gate.report import github


def test_the_defaults_report_twenty_mutants_in_one_suite_run() -> None:
    cfg = config.parse({}, ".gate.toml")
    assert (cfg.pinned, cfg.pinned_mutants, cfg.pinned_time) == ("report", 20, 1.0)
    cfg = config.parse({"pinned": "review", "pinned-mutants": 0, "pinned-time": 2},
                       ".gate.toml")
    assert (cfg.pinned, cfg.pinned_mutants, cfg.pinned_time) == ("review", 0, 2.0)


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("pinned", "strict", '"off", "report" or "review"'),
    ("pinned-mutants", -1, "a whole number of mutants, 0 or more (0: none)"),
    ("pinned-mutants", True, "a whole number of mutants, 0 or more (0: none)"),
    ("pinned-time", 0, "a positive number of suite runs"),
])
def test_a_bad_value_names_the_key_and_what_it_takes(key: str, value: object,
                                                     expected: str) -> None:
    with pytest.raises(GateError) as info:
        config.parse({key: value}, ".gate.toml")
    assert str(info.value) == (f".gate.toml: key {key!r} must be {expected}, got {value!r}; "
                               "fix it on the base branch")


def _change(tmp_path: Path, **options: str) -> Change:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": 'pinned = "review"\n',
                                              "m.py": "X = 1\n"}, {"m.py": "X = 2\n"})
    return prepare(Options(base="main", head="change", repo=str(repo.path), **options))


def test_the_flag_wins_over_the_config_and_off_skips_the_check(tmp_path: Path) -> None:
    assert _change(tmp_path / "a").config.pinned == "review"
    change = _change(tmp_path / "b", pinned="off")
    assert change.config.pinned == "off"
    suite = CheckResult("suite", "Suite", "passed", True, "3 of 3 runs passed", duration_s=3.0)
    unused = Workspace(str(tmp_path), str(tmp_path), {}, 1.0)
    result = step.check(change, unused, "pytest", str(tmp_path), suite, Progress())
    assert (result.status, result.summary, result.required) == (
        "skipped", 'skipped: pinned = "off"', False)


def test_a_suite_that_failed_skips_it(tmp_path: Path) -> None:
    change = _change(tmp_path)
    suite = CheckResult("suite", "Suite", "failed", True, "0 of 3 runs passed")
    unused = Workspace(str(tmp_path), str(tmp_path), {}, 1.0)
    result = step.check(change, unused, "pytest", str(tmp_path), suite, Progress())
    assert (result.status, result.summary) == ("skipped", "skipped: the suite did not pass")


def _pinned(review: bool) -> CheckResult:
    severity: Severity = "warning" if review else "notice"
    survivor = Finding("calc/__init__.py", 16, "survived-mutant",
                       "`a + b` → `a - b`: every test still passes", severity=severity)
    return CheckResult("pinned", "The change is held by tests that can fail",
                       "failed" if review else "passed", False, "1 of 2 mutants killed",
                       findings=(survivor,))


def test_report_mode_annotates_the_line_and_leaves_the_verdict() -> None:
    assert decide([_pinned(review=False)]) == "pass"
    report = Report("pass", "b" * 40, "a" * 40, 1.0, (_pinned(review=False),))
    assert github.render(report).splitlines()[0] == (
        "::notice file=calc/__init__.py,line=16,endLine=16,title=gate pinned%3A "
        "survived-mutant::`a + b` → `a - b`: every test still passes")


def test_review_mode_makes_it_needs_review() -> None:
    assert decide([_pinned(review=True)]) == "needs-review"
    assert decide([_pinned(review=True)], strict=True) == "fail"
