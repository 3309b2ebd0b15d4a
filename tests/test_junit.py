"""Per-test outcomes read from pytest's JUnit report."""
from __future__ import annotations

from pathlib import Path

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
