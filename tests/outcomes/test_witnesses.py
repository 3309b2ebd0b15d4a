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


def test_go_test_is_not_said_unwitnessed_by_this_table(tmp_path: Path) -> None:
    """Go's witness is its overlaid `testing` (`go_witness`), which says itself where it sent
    nothing: this table does not call every Go run unwitnessed (it did after the merges)."""
    printed = "=== RUN   TestA\\n--- PASS: TestA (0.00s)\\nok  \\tx\\t0.1s\\n"
    run = run_in(tmp_path, f"printf '{printed}'")
    assert run.counts is not None and run.counts.runner == "go test"
    assert "no witness of the gate's own" not in suite.judge([run], 1).summary
