"""scheduler.run_within: a trial's follow-up (a mutant's whole suite after its scoped run
passed) is under the time budget too; a pair cut in half is never judged by its first half."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from gate.execution.run_workspace import Workspace
from gate.trials import scheduler
from gate.trials.trial import Outcome, Trial


def _trial(tmp_path: Path) -> Trial:
    (tmp_path / "checkout").mkdir()
    (tmp_path / "scratch").mkdir()
    ws = Workspace(str(tmp_path / "checkout"), str(tmp_path / "scratch"),
                   {"PATH": os.environ["PATH"]}, 600.0)
    return Trial("first", ws, "sleep 1")


def _then(done: Outcome) -> Trial | None:
    if done.trial.name != "first":
        return None
    return dataclasses.replace(done.trial, name="second", command="true")


def test_a_follow_up_that_would_end_past_the_budget_is_not_run(tmp_path: Path) -> None:
    """The first run takes at least 1 s, so the second would end at least 2 s after the
    start, past a budget of 1.5 s, however loaded the machine."""
    assert scheduler.run_within([_trial(tmp_path)], 1, 1.5, then=_then) == [None]


def test_a_follow_up_within_the_budget_is_the_outcome_kept(tmp_path: Path) -> None:
    done = scheduler.run_within([_trial(tmp_path)], 1, 600, then=_then)
    assert done[0] is not None and done[0].trial.name == "second"


def test_a_run_started_within_the_budget_is_cut_at_its_end(tmp_path: Path) -> None:
    """emoji 69c73d5's mutant (a cache removed) ran to its own limit of three suite runs:
    the budget ruled only when runs start. Now a run's limit is what is left of it."""
    trial = dataclasses.replace(_trial(tmp_path), command="sleep 600")
    [done] = scheduler.run_within([trial], 1, 3.0)
    assert done is not None and done.run.completed.timed_out
    assert done.trial.workspace.timeout <= 3.0


def test_the_first_trials_get_the_floor_instead_of_a_spent_budget(tmp_path: Path) -> None:
    first = _trial(tmp_path)
    second = dataclasses.replace(first, name="second", command="true")
    done = scheduler.run_within([first, second], 1, 0.0, must=1, floor=600.0)
    assert done[0] is not None and done[0].run.passed and done[1] is None
