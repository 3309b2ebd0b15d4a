"""The varied run's own failure (gate/trials/varied.py `spoiled`): a varied run that hangs or
is killed before its runner reported anything, while every usual run passed, is the gate's
conditions' doing, not the change's (issue 46); one that got as far as a report is judged like
any other run."""
from __future__ import annotations

from pathlib import Path

from gate.execution import process
from gate.execution.conditions import USUAL, Conditions
from gate.execution.run_workspace import Workspace
from gate.outcomes import testrun
from gate.outcomes.record import CaseResult, Counts
from gate.trials import varied
from gate.trials.trial import Outcome, Trial

VARIED = Conditions(clock_days=365, unlimited=True)


def _outcome(tmp_path: Path, n: int, conditions: Conditions, code: int | None,
             timed_out: bool = False, reported: bool = True, heard: bool = False,
             running: str | None = None) -> Outcome:
    case = CaseResult("t.py::test_a", "t.py", 1, "passed")
    counts = Counts("pytest", 1, 0, 0, (case,)) if reported else None
    done = process.Completed("pytest", code, "", timed_out, False, 1.0)
    trial = Trial(f"suite-run-{n}", Workspace(str(tmp_path), str(tmp_path), {}, 60), "pytest",
                  conditions=conditions)
    run = testrun.TestRun(done, counts, True, running=running, heard=heard)
    return Outcome(trial, run, trial.order)


def _runs(tmp_path: Path, last: Outcome) -> list[Outcome]:
    return [_outcome(tmp_path, 1, USUAL, 0), _outcome(tmp_path, 2, USUAL, 0), last]


def test_a_varied_run_that_hangs_before_any_report_is_the_gates_own(tmp_path: Path) -> None:
    hung = _outcome(tmp_path, 3, VARIED, None, timed_out=True, reported=False)
    said = varied.spoiled(_runs(tmp_path, hung), 3)
    assert said == ("run 3 (with the clock 365 days ahead, no memory limit) timed out at 1s "
                    "before any test ran, under the gate's own conditions: judged on the 2 "
                    "usual runs")
    (tmp_path / "Cargo.toml").write_text("")
    finding = varied.spoiled_finding(said, str(tmp_path))
    assert (finding.path, finding.line, finding.rule, finding.severity) == (
        "Cargo.toml", 1, "varied-run-hung", "warning")  # a person decides: needs-review


def test_a_varied_run_killed_by_a_signal_before_any_report_is_the_gates_own(
        tmp_path: Path) -> None:
    for code in (-11, 128 + 6):
        crashed = _outcome(tmp_path, 3, VARIED, code, reported=False)
        assert "was killed by signal" in varied.spoiled(_runs(tmp_path, crashed), 3)


def test_a_varied_run_that_hung_in_the_tests_is_judged_like_any_run(tmp_path: Path) -> None:
    """A test that hangs only a year ahead got as far as the runner's report: the change's."""
    hung = _outcome(tmp_path, 3, VARIED, None, timed_out=True, reported=True)
    assert varied.spoiled(_runs(tmp_path, hung), 3) == ""


def test_a_varied_run_whose_recorders_spoke_or_that_ran_a_test_is_judged_like_any_run(
        tmp_path: Path) -> None:
    """A hang in a conftest the gate's watcher saw, or in a test that was running: code that
    hangs only a year ahead, the change's."""
    for hung in (_outcome(tmp_path, 3, VARIED, None, True, reported=False, heard=True),
                 _outcome(tmp_path, 3, VARIED, None, True, reported=False,
                          running="t.py::test_a")):
        assert varied.spoiled(_runs(tmp_path, hung), 3) == ""


def test_a_varied_run_that_exits_1_is_judged_like_any_run(tmp_path: Path) -> None:
    failed = _outcome(tmp_path, 3, VARIED, 1, reported=False)
    assert varied.spoiled(_runs(tmp_path, failed), 3) == ""


def test_a_hang_is_the_changes_where_a_usual_run_failed_too(tmp_path: Path) -> None:
    hung = _outcome(tmp_path, 3, VARIED, None, timed_out=True, reported=False)
    runs = [_outcome(tmp_path, 1, USUAL, 1), _outcome(tmp_path, 2, USUAL, 0), hung]
    assert varied.spoiled(runs, 3) == ""


def test_a_usual_last_run_that_hangs_is_never_excused(tmp_path: Path) -> None:
    hung = _outcome(tmp_path, 3, USUAL, None, timed_out=True, reported=False)
    assert varied.spoiled(_runs(tmp_path, hung), 3) == ""


def test_the_unmoved_clock_is_said_only_where_there_is_a_varied_run(tmp_path: Path) -> None:
    """One run has no varied run: nothing to say of its clock (it was said on every
    one-run cargo project after the merges)."""
    unmoved = Conditions(files_days=30, unmoved="rustc hung at the start under libfaketime")
    one = [_outcome(tmp_path, 1, USUAL, 0)]
    assert varied.set_aside(one, 1, unmoved, str(tmp_path)).note == ""
    three = _runs(tmp_path, _outcome(tmp_path, 3, unmoved, 0))
    assert varied.set_aside(three, 3, unmoved, str(tmp_path)).note == (
        "; the varied run's clock was not moved: rustc hung at the start under libfaketime")
