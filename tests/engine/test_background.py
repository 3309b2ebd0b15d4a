"""Work beside the run: the diff checks run on a thread of their own while the install
runs, and the caller's Progress hears one call at a time."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

import gate
from gate.checks import registry
from gate.engine import runner
from gate.engine.background import Background
from gate.models import CheckResult


def test_background_hands_back_the_value() -> None:
    assert Background(lambda: 6 * 7, "answer").result() == 42


def test_background_hands_back_the_exception() -> None:
    def fail() -> int:
        raise ValueError("no")

    work = Background(fail, "failing")
    work.wait()  # waiting does not raise
    with pytest.raises(ValueError, match="no"):
        work.result()


class Recorder(runner.Progress):
    """Records which thread told what, and how many calls were in progress at once."""

    def __init__(self) -> None:
        self.threads: dict[str, str] = {}
        self.inside = 0
        self.most_inside = 0

    def _enter(self) -> None:
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        time.sleep(0.01)  # widen the window in which a second caller would be seen
        self.inside -= 1

    def started(self, check_id: str, title: str) -> None:
        self._enter()
        self.threads[check_id] = threading.current_thread().name

    def finished(self, result: CheckResult) -> None:
        self._enter()


def test_the_diff_checks_are_told_from_their_own_thread_one_call_at_a_time(
    tmp_path: Path
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.py": "x = 1\n"}, {"a.py": "x = 2\n"})
    progress = Recorder()
    report = gate.run(str(repo.path), base="main", head="change", install="sleep 0.5",
                      test="true", runs=1, progress=progress)
    assert report.verdict == "pass"
    assert progress.threads["install"] == threading.current_thread().name
    assert {progress.threads[c] for c in registry.DIFF} == {"gate-diff-checks"}
    assert progress.most_inside == 1
    assert [c.id for c in report.checks] == list(registry.ORDER)
