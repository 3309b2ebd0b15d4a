"""uvu, read from recorded outputs (kept with the colour codes uvu writes even to a pipe)."""
from __future__ import annotations

from pathlib import Path

from gate.outcomes import reading
from gate.outcomes.record import CaseResult

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "uvu"


def test_a_failing_uvu_run_counts_and_names_each_failure_at_its_line() -> None:
    counts = reading.read((FIXTURES / "fail.txt").read_text(), "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.runner, counts.passed, counts.failed, counts.skipped) == ("uvu", 3, 2, 1)
    assert not counts.complete  # a passing test is a dot: only the failures are named
    assert counts.failures() == [
        CaseResult("sum breaks", "/work/kleur/tests/a.js", 4, "failed",
                   "Expected values to be strictly equal:  (is)"),
        CaseResult("Math > mul", "/work/kleur/tests/a.js", 8, "failed",
                   "Expected values to be deeply equal:  (equal)"),
    ]


def test_a_passing_uvu_run_is_read_through_its_colour_codes() -> None:
    output = (FIXTURES / "pass.txt").read_text()
    assert "\x1b[" in output
    counts = reading.read(output, "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.runner, counts.passed, counts.failed, counts.skipped) == ("uvu", 1, 0, 0)


def test_two_uvu_runs_are_summed() -> None:
    one = (FIXTURES / "pass.txt").read_text()
    counts = reading.read(one + (FIXTURES / "fail.txt").read_text(), "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.passed, counts.failed, counts.skipped) == (4, 2, 1)


def test_a_total_line_alone_is_not_a_uvu_run() -> None:
    """A program printing its own "Total:" (a coverage table, a build) is not read as uvu
    with every test failed: the summary is uvu's four lines."""
    assert reading.read("  Total:     12\n  Passed:    3\n", "/nonexistent/report.xml") is None


def test_colour_codes_do_not_hide_another_runners_summary() -> None:
    """Mocha's closing summary, coloured as with FORCE_COLOR: read as in plain output."""
    output = "\x1b[32m  3 passing\x1b[0m\x1b[90m (5ms)\x1b[0m\n\x1b[31m  1 failing\x1b[0m\n"
    counts = reading.read(output, "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.runner, counts.passed, counts.failed) == ("mocha", 3, 1)
