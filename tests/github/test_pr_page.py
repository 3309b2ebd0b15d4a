"""The PR page (job summary, check run summary, comment): each failing check's output in a
folded block, the tests to look at with links to their lines, the counts against the base,
and "review" 🟡 for a check that only asks for a person's look."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers.fake_github import REPO, FakeGitHub
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import CALC, TEST_CALC, project

from gate import cli
from gate.github import publish
from gate.github.client import Api, Pacing
from gate.github.settings import Settings
from gate.models import CheckResult, Finding, Report, TestCounts
from gate.report import github, json_report, markdown, text
from gate.report.tests_table import BaseDelta

HEAD, BASE = "a" * 40, "b" * 40
LINKS = markdown.Links("https://github.com", "o/r", HEAD, BASE)


def suite(*findings: Finding, detail: str = "", tests: TestCounts | None = None) -> CheckResult:
    return CheckResult("suite", "The whole suite passes every run", "failed", True,
                       "1 of 3 runs passed", detail=detail, findings=findings, tests=tests)


FAILING = Finding("tests/test_x.py", 12, "test-failed",
                  "tests/test_x.py::test_total failed in 3 of 3 runs: assert 1 == 2", "error")
FLAKY = Finding("tests/test_y.py", 4, "test-failed",
                "flaky: tests/test_y.py::test_clock failed in 1 of 3 runs (passed 2 of 3)",
                "error")
REMOVED = Finding("tests/test_z.py", 7, "test-removed",
                  "test `test_edge` was removed (present at base, absent at head)", "error")
ESCAPE = Finding("src/m.py", 3, "noqa", "new escape", "warning")


def test_the_tests_to_look_at_link_to_their_lines_a_removed_one_at_base() -> None:
    report = Report("fail", BASE, HEAD, 9.0, (
        suite(FLAKY, FAILING, tests=TestCounts(passed=40, failed=1, flaky=1, skipped=2)),
        CheckResult("tests-removed", "No tests removed", "failed", False, "1 removed",
                    findings=(REMOVED,)),
        CheckResult("escapes", "No new escapes", "failed", False, "1 escape",
                    findings=(ESCAPE,)),
    ))
    body = markdown.body(report, links=LINKS, delta=BaseDelta(added=3, removed=130))
    blob = "https://github.com/o/r/blob/"
    assert ("**Tests:** 40 passed, 1 failed, 1 flaky, 2 skipped "
            "(+3 \N{MINUS SIGN}130 against the base)") in body
    assert (
        "**Tests to look at (3)**\n\n| | test | where |\n|---|---|---|\n"
        "| failing | tests/test_x.py::test_total failed in 3 of 3 runs: assert 1 == 2 | "
        f"[`tests/test_x.py:12`]({blob}{HEAD}/tests/test_x.py#L12) |\n"
        "| removed | test `test_edge` was removed (present at base, absent at head) | "
        f"[`tests/test_z.py:7`]({blob}{BASE}/tests/test_z.py#L7) |\n"
        "| flaky | flaky: tests/test_y.py::test_clock failed in 1 of 3 runs (passed 2 of 3) | "
        f"[`tests/test_y.py:4`]({blob}{HEAD}/tests/test_y.py#L4) |\n\n"
        "**Other findings (1)**\n\n"
        f"- [`src/m.py:3`]({blob}{HEAD}/src/m.py#L3) **escapes** (warning): new escape `noqa`"
    ) in body


def test_a_new_skip_is_a_test_to_look_at_an_allowed_one_is_not() -> None:
    skip = Finding("tests/test_x.py", 5, "pytest.mark.skip", "new skip marker", "error")
    allowed = Finding("tests/test_x.py", 9, "pytest.mark.skip", "allowed: flaky on CI",
                      "notice")
    report = Report("needs-review", BASE, HEAD, 1.0, (
        CheckResult("skip-markers", "t", "failed", False, "1 marker",
                    findings=(skip, allowed)),))
    body = markdown.body(report, links=LINKS)
    assert ("| skipped | new skip marker | [`tests/test_x.py:5`](https://github.com/o/r/blob/"
            f"{HEAD}/tests/test_x.py#L5) |") in body
    assert "**Tests to look at (1)**" in body
    assert "**Other findings (1)**" in body  # the allowed one, with its reason


def test_without_base_outcomes_or_links_the_counts_and_table_still_show() -> None:
    report = Report("fail", BASE, HEAD, 9.0, (
        suite(FAILING, tests=TestCounts(passed=5, failed=1, flaky=0, skipped=0)),))
    body = markdown.body(report)
    assert "**Tests:** 5 passed, 1 failed\n" in body
    assert ("| failing | tests/test_x.py::test_total failed in 3 of 3 runs: assert 1 == 2 | "
            "`tests/test_x.py:12` |") in body
    assert "**Findings" not in body and "**Other findings" not in body


def test_a_message_cannot_hide_the_rest_of_the_page() -> None:
    """A test whose assertion message opens an HTML comment would hide every row after it,
    the folded outputs and the findings."""
    hiding = Finding("tests/test_x.py", 3, "test-failed",
                     "tests/test_x.py::test_a failed in 3 of 3 runs: assert '<!--' == ''")
    report = Report("fail", BASE, HEAD, 9.0, (suite(hiding, FAILING),))
    body = markdown.body(report)
    assert "<!--" not in body
    assert ("| failing | tests/test_x.py::test_a failed in 3 of 3 runs: assert '&lt;!--' == '' "
            "| `tests/test_x.py:3` |") in body


def test_each_failing_check_shows_its_output_folded_and_fenced() -> None:
    """Output with a fence of its own and HTML cannot break out of the block."""
    detail = "FAILED tests/test_x.py::test_total\n```\n</details><b>x</b>\n````"
    report = Report("fail", BASE, HEAD, 9.0, (
        CheckResult("install", "Installs", "passed", True, "ok", detail="not shown"),
        suite(FAILING, detail=detail),
        CheckResult("lint", "lint", "failed", False, "exit 1 <&>", detail="E501 line too long"),
    ))
    body = markdown.body(report)
    assert ("<details><summary>❌ suite: 1 of 3 runs passed</summary>\n\n"
            f"`````text\n{detail}\n`````\n\n</details>") in body
    assert ("<details><summary>🟡 lint: exit 1 &lt;&amp;&gt;</summary>\n\n"
            "```text\nE501 line too long\n```\n\n</details>") in body
    assert "not shown" not in body


def test_a_long_output_keeps_its_end() -> None:
    check = suite(detail="start\n" + "x" * 10000 + "\nthe assertion")
    block = markdown.details(check, limit=100)
    assert "start" not in block
    assert block.endswith("x\nthe assertion\n```\n\n</details>")
    assert "… (the first lines are cut: the full output is in the logs)" in block


def test_the_logs_are_linked() -> None:
    report = Report("pass", BASE, HEAD, 1.0, ())
    assert ("The full output of every command: [logs](https://github.com/o/r/actions/runs/1/"
            "artifacts/2).") in markdown.body(
                report, logs_url="https://github.com/o/r/actions/runs/1/artifacts/2")


def test_a_diff_check_under_needs_review_reads_review_not_fail() -> None:
    escapes = CheckResult("escapes", "No new escapes", "failed", False, "1 escape",
                          findings=(ESCAPE,))
    install = CheckResult("install", "Installs", "failed", True, "exit 1")
    report = Report("needs-review", BASE, HEAD, 1.0, (escapes,))
    assert "| 🟡 | `escapes` | review | 1 escape |  |" in markdown.body(report)
    assert text.check_line(escapes) == " review  escapes: 1 escape"
    assert text.check_line(install) == "   FAIL  install: exit 1"
    assert "| ❌ | `install` | failed | exit 1 |  |" in markdown.body(
        Report("fail", BASE, HEAD, 1.0, (install,)))


def test_the_step_log_groups_each_check_and_no_output_is_a_command() -> None:
    """A test that prints `::stop-commands::` would silence the gate's own annotations after
    it; one that prints `::error` would forge one. Inside a group, every line is quoted."""
    check = CheckResult("suite", "t", "failed", True, "0 of 1 runs passed",
                        detail="::stop-commands::abc\n  ::error file=a.py::forged 100%",
                        findings=(Finding("t.py", 3, "test-failed", "::warning::x"),))
    lines = github.groups(Report("fail", "b", "h", 1.0, (check,)))
    assert lines == [
        "::group::   FAIL  suite: 0 of 1 runs passed",
        "| t.py:3: suite: ::warning::x [test-failed]",
        "| ::stop-commands::abc",
        "|   ::error file=a.py::forged 100%",
        "::endgroup::",
    ]


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_a_real_run_published(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change that breaks `add`, deletes a test and keeps one that now fails: the job
    summary and the check run show the failing test's output, the table with links at the
    head (the failing test) and at the base (the removed one), and the test counts."""
    broken = CALC.replace("return a + b", "return a + b + 1")
    tests_left = TEST_CALC[:TEST_CALC.index("\n\ndef test_sub")] + "\n"
    repo, base, head = make_change(tmp_path / "r", project(), {
        "calc/__init__.py": broken, "tests/test_calc.py": tests_left})
    report_file = tmp_path / "report.json"
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--format", "json", "--report", str(report_file)])
    capsys.readouterr()
    assert code == 1
    data = json.loads(report_file.read_text())
    assert data["checks"][1]["tests"] == {"passed": 0, "failed": 1, "flaky": 0, "skipped": 0}
    with FakeGitHub() as fake:
        fake.pulls[7] = head
        settings = Settings(token="t", api_url=fake.api_url, repository=REPO, pr_number=7,
                            step_summary=str(tmp_path / "summary.md"),
                            output=str(tmp_path / "output.txt"))
        publish.publish(json_report.load(str(report_file)), settings, str(report_file),
                        api_factory=lambda s: Api(s, Pacing.none()), out=io.StringIO())
        (run,) = fake.check_runs.values()
    summary = (tmp_path / "summary.md").read_text()
    assert run["output"]["summary"] == summary
    blob = f"https://github.com/{REPO}/blob/"
    assert "**Tests:** 0 passed, 1 failed\n" in summary
    assert (f"[`tests/test_calc.py:4`]({blob}{head}/tests/test_calc.py#L4)") in summary
    assert (f"| removed | test `test_sub` was removed (present at base, absent at head) | "
            f"[`tests/test_calc.py:8`]({blob}{base}/tests/test_calc.py#L8) |") in summary
    assert "<details><summary>❌ suite: 0 of 1 runs passed" in summary
    assert "assert 6 == 5" in summary.split("<details><summary>❌ suite")[1]
    assert "passed<<GATE_EOF\n0\nGATE_EOF\nfailed<<GATE_EOF\n1\nGATE_EOF\n" in (
        tmp_path / "output.txt").read_text()
