"""Per-test outcomes read from pytest's JUnit report."""
from __future__ import annotations

import sys
from pathlib import Path

from helpers.runners import run_in

from gate.outcomes import junit
from gate.outcomes.junit import CaseResult

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="4">
<testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py" line="3" time="0.1"/>
<testcase classname="tests.test_a.TestK" name="test_bad" file="tests/test_a.py" line="9">
  <failure message="assert 1 == 2">trace</failure></testcase>
<testcase classname="tests.test_a" name="test_err" file="tests/test_a.py" line="12">
  <error message="fixture broke"/></testcase>
<testcase classname="tests.test_a" name="test_skip" file="tests/test_a.py" line="15">
  <skipped message="later"/></testcase>
</testsuite></testsuites>
"""


def test_outcomes_with_names_files_and_one_based_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.xml"
    path.write_text(REPORT)
    assert junit.parse(str(path)) == [
        CaseResult("tests/test_a.py::test_ok", "tests/test_a.py", 4, "passed", seconds=0.1),
        CaseResult("tests/test_a.py::TestK::test_bad", "tests/test_a.py", 10, "failed",
                    "assert 1 == 2"),
        CaseResult("tests/test_a.py::test_err", "tests/test_a.py", 13, "failed",
                    "fixture broke"),
        CaseResult("tests/test_a.py::test_skip", "tests/test_a.py", 16, "skipped", "later"),
    ]


def test_a_missing_or_broken_report_is_none(tmp_path: Path) -> None:
    assert junit.parse(str(tmp_path / "absent.xml")) is None
    (tmp_path / "bad.xml").write_text("<testsuite")
    assert junit.parse(str(tmp_path / "bad.xml")) is None


def test_a_command_running_pytest_twice_keeps_both_sessions_outcomes(tmp_path: Path) -> None:
    """Each session writes a report of its own (the gate's gate_sessions plugin): with one
    --junitxml file the second session's report replaced the first's."""
    root = tmp_path / "project"
    for folder, names in (("unit", ("a", "b")), ("integration", ("c",))):
        (root / folder).mkdir(parents=True)
        (root / folder / f"test_{folder}.py").write_text(
            "".join(f"def test_{n}():\n    assert True\n" for n in names))
    python = f"{sys.executable} -m pytest -q"
    run = run_in(root, f"{python} unit && {python} integration")
    assert run.counts is not None and run.passed, run.completed.output[-2000:]
    assert sorted(c.name for c in run.counts.cases) == [
        "integration/test_integration.py::test_c", "unit/test_unit.py::test_a",
        "unit/test_unit.py::test_b"]
