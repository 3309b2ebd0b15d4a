"""What the gate cannot see, said: a runner it cannot read is named in the suite's summary,
with what works instead (its TAP reporter, read as node:test's)."""
from __future__ import annotations

import json
from pathlib import Path

from gate.execution.process import Completed
from gate.models import CheckResult
from gate.outcomes import reading, testrun, unread

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ava"
SUITE = CheckResult("suite", "Suite", "passed", True, "3 of 3 runs passed")
# AVA's TAP reporter (`ava --tap`), as AVA 6 prints it.
AVA_TAP = """TAP version 13
ok 1 - test \u203a returns level 1 when only stdout is TTY
ok 2 - test \u203a supports CI
not ok 3 - test \u203a FORCE_COLOR level 3
  ---
    name: AssertionError
  ...

1..3
# tests 3
# pass 2
# skip 0
# fail 1
"""


def _run(output: str, returncode: int = 0) -> testrun.TestRun:
    done = Completed("npm test", returncode, output, False, False, 1.0)
    return testrun.TestRun(done, reading.read(output, "/nonexistent/report.xml"))


def test_an_ava_suite_says_per_test_outcomes_are_not_available_and_what_works(
        tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps(
        {"scripts": {"test": "xo && ava && tsd"}}))
    said = unread.said(SUITE, [_run("  ✔ supports CI\n  42 tests passed\n")], "npm test",
                       str(tmp_path))
    assert said.summary == (
        "3 of 3 runs passed; per-test outcomes: not available for ava (the gate reads pytest, "
        "unittest, Jest, Vitest, Mocha, node:test, uvu, go test, cargo test and cargo-nextest): "
        "the suite is judged by its exit status alone, and base-tests cannot name the test "
        "that failed; `ava --tap` is read as node:test's TAP")


def test_what_works_instead_works_avas_tap_output_is_read() -> None:
    counts = reading.read(AVA_TAP, "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.passed, counts.failed) == (2, 1)
    assert [c.name for c in counts.failures()] == ["test \u203a FORCE_COLOR level 3"]
    assert unread.said(SUITE, [_run(AVA_TAP, 1)], "npx ava --tap", "/nonexistent") == SUITE


def test_avas_real_tap_output_names_every_test() -> None:
    """Recorded: `npx ava --tap` on chalk/supports-color f6845d6 (AVA 6)."""
    counts = reading.read((FIXTURES / "tap.txt").read_text(), "/nonexistent/report.xml")
    assert counts is not None
    assert (counts.passed, counts.failed, counts.complete) == (51, 0, True)
    assert len(counts.cases) == 51


def test_a_command_of_the_projects_own_is_not_named(tmp_path: Path) -> None:
    """`sh check.sh` may run anything: the gate does not guess."""
    assert unread.said(SUITE, [_run("all good\n")], "sh check.sh", str(tmp_path)) == SUITE
