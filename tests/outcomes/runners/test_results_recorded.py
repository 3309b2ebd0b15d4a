"""go test and nextest, read from recorded outputs (neither runs on this project's CI)."""
from __future__ import annotations

from pathlib import Path

from gate.outcomes import reading as results
from gate.outcomes.location import locate
from gate.outcomes.record import CaseResult, Counts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CALC_TEST = """\
package calc

import "testing"

func TestAdd(t *testing.T) {
\tif Add(1, 1) != 2 {
\t\tt.Fatal("wrong")
\t}
}

func TestBreaks(t *testing.T) {
\tif got := Add(1, 1); got != 3 {
\t\tt.Errorf("Add(1, 1) = %d, want 3", got)
\t}
}

func TestLater(t *testing.T) {
\tt.Skip("later")
}

func TestTable(t *testing.T) {
\tt.Run("one", func(t *testing.T) {})
\tt.Run("two", func(t *testing.T) { t.Error("two broke") })
}
"""


def read(name: str) -> Counts | None:
    return results.read((FIXTURES / name).read_text(), "/nonexistent/report.xml")


def test_go_verbose_failure_counts_top_level_tests_and_names_the_failures() -> None:
    counts = read("go/fail-verbose.txt")
    assert counts is not None
    assert (counts.runner, counts.passed, counts.failed, counts.skipped) == ("go test", 2, 2, 1)
    assert counts.describe() == "2/4 tests, 1 skipped"
    assert counts.complete
    assert counts.failures() == [
        CaseResult("TestBreaks", "calc_test.go", None, "failed", "Add(1, 1) = 2, want 3"),
        CaseResult("TestTable", "calc_test.go", None, "failed", "two broke"),
    ]


def test_go_failures_are_located_at_their_definition(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "calc_test.go").write_text(CALC_TEST)
    counts = read("go/fail-verbose.txt")
    assert counts is not None
    located = locate(counts, str(tmp_path))
    assert [(c.name, c.file, c.line) for c in located.failures()] == [
        ("TestBreaks", "calc/calc_test.go", 11), ("TestTable", "calc/calc_test.go", 21)]


def test_go_without_verbose_counts_packages() -> None:
    counts = read("go/fail.txt")
    assert counts is not None
    assert (counts.passed, counts.failed, counts.unit, counts.complete) == (1, 1, "packages",
                                                                          False)
    assert [c.name for c in counts.failures()] == ["TestBreaks", "TestTable"]
    assert read("go/pass.txt") == Counts("go test", 2, 0, 0, (), complete=False,
                                         unit="packages")


def test_go_verbose_pass() -> None:
    counts = read("go/pass-verbose.txt")
    assert counts is not None
    assert (counts.passed, counts.failed, counts.skipped) == (4, 0, 1)
    assert [c.name for c in counts.cases] == ["TestAdd", "TestBreaks", "TestLater",
                                              "TestTable", "TestSub"]


def test_go_build_failure_is_a_failure() -> None:
    counts = read("go/build-error.txt")
    assert counts is not None
    assert (counts.passed, counts.failed) == (1, 1)
    assert [c.name for c in counts.failures()] == ["example.com/gox/calc (build failed)"]


def test_go_is_asked_for_verbose_output_through_goflags() -> None:
    env = results.report_env({"GOFLAGS": "-mod=mod"}, "/r.xml")
    assert env["GOFLAGS"] == "-mod=mod -v"
    assert results.report_env({}, "/r.xml")["GOFLAGS"] == "-v"


def test_nextest_failure() -> None:
    counts = read("nextest/fail.txt")
    assert counts is not None
    assert (counts.runner, counts.passed, counts.failed, counts.skipped) == ("nextest", 2, 2, 1)
    assert [c.name for c in counts.failures()] == ["tiny tests::breaks", "tiny::it leaks"]


def test_nextest_pass() -> None:
    assert read("nextest/pass.txt") == Counts("nextest", 3, 0, 1, (), complete=False)


def test_nextest_with_every_status_line_names_every_test() -> None:
    """NEXTEST_STATUS_LEVEL=all (the gate's environment) prints each test's line before the
    summary: with the summary's counts exactly, every test is named."""
    counts = read("nextest/all.txt")
    assert counts == Counts("nextest", 1, 1, 1, (
        CaseResult("nx tests::later", None, None, "skipped"),
        CaseResult("nx tests::adds", None, None, "passed"),
        CaseResult("nx tests::breaks", None, None, "failed")))


def test_nextest_status_lines_that_disagree_with_the_summary_name_only_failures() -> None:
    text = (FIXTURES / "nextest" / "all.txt").read_text()
    forged = text.replace("        PASS [", "        PASS [   0.001s] (1/2) nx tests::ghost\n"
                          "        PASS [", 1)
    counts = results.read(forged, "/nowhere/r.xml")
    assert counts is not None
    assert (counts.complete, counts.passed, [c.name for c in counts.cases]) == (
        False, 1, ["nx tests::breaks"])


def test_nextest_is_asked_for_every_status_line() -> None:
    assert results.report_env({}, "/r.xml")["NEXTEST_STATUS_LEVEL"] == "all"
