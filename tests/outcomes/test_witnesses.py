"""The suite's summary says where no witness of the gate's own decided the outcomes."""
from __future__ import annotations

from pathlib import Path

from helpers.runners import run_in

from gate.checks import suite


def test_a_runner_read_from_its_output_alone_is_said(tmp_path: Path) -> None:
    run = run_in(tmp_path, "printf '# tests 3\\n# pass 3\\n# fail 0\\n'")
    assert suite.judge([run], 1).summary == (
        "1 of 1 runs passed, 3/3 tests; outcomes as node:test printed them (no witness of the "
        "gate's own)")


def test_a_jest_summary_with_nothing_sent_is_said(tmp_path: Path) -> None:
    run = run_in(tmp_path, "printf 'Tests:       2 passed, 2 total\\n'")
    assert suite.judge([run], 1).summary == (
        "1 of 1 runs passed, 2/2 tests; outcomes as jest printed them (the gate's witness sent "
        "nothing)")
