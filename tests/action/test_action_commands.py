"""Workflow commands (`--format github`) and the Markdown of the job summary and the comment."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.models import CheckResult, Finding, Isolation, Report
from gate.report import github, markdown

BASE_TEST = "def test_one():\n    assert 1\n\n\ndef test_two():\n    assert 2\n"
HEAD_TEST = "import pytest\n\n\n@pytest.mark.skip(reason='x')\ndef test_one():\n    assert 1\n"


def test_escaping_follows_github() -> None:
    assert github.escape_data("100%\r\ndone: a,b") == "100%25%0D%0Adone: a,b"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert github.command("error", "two\nlines", [("file", "dir,x/a:b.py"), ("line", "3")]) == (
        "::error file=dir%2Cx/a%3Ab.py,line=3::two%0Alines")
    assert github.command("notice", "plain") == "::notice::plain"


def test_scan_prints_workflow_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"tests/test_a.py": BASE_TEST},
                             {"tests/test_a.py": HEAD_TEST})
    code = cli.main(["scan", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "github"])
    assert code == 3
    assert capsys.readouterr().out == (
        "::error file=tests/test_a.py,line=5,endLine=5,title=gate tests-removed%3A "
        "test-removed::test `test_two` was removed (present at base, absent at head)\n"
        "::error file=tests/test_a.py,line=4,endLine=4,title=gate skip-markers%3A "
        "pytest.mark.skip::new skip marker `pytest.mark.skip`: the test it marks no longer runs\n"
        "gate: needs-review, 2 annotation(s)\n")


def finding(path: str, severity: str = "warning", line: int = 1) -> Finding:
    return Finding(path, line, "rule", f"about {path}", severity)


def check(check_id: str, *found: Finding, status: str = "failed",
          required: bool = False) -> CheckResult:
    return CheckResult(check_id, check_id.title(), status, required,
                       f"{check_id} summary", findings=found)


def test_the_most_important_come_first() -> None:
    report = Report("fail", "b" * 40, "a" * 40, 1.0, (
        check("install", status="passed", required=True),
        check("suite", status="timeout", required=True),
        check("base-tests", finding("base.py", "warning")),
        check("tests-removed", finding("removed.py", "error")),
        check("skip-markers", finding("skip_warn.py", "warning"), finding("skip.py", "error")),
        check("escapes", finding("esc.py", "notice")),
        check("lockfiles", status="error"),
        check("diff-policy", finding("ci.yml", "error")),
    ))
    assert [(a.level, a.path, a.title) for a in github.ordered(report)] == [
        ("error", None, "gate suite"),
        ("error", "removed.py", "gate tests-removed: rule"),
        ("error", "skip.py", "gate skip-markers: rule"),
        ("warning", "skip_warn.py", "gate skip-markers: rule"),
        ("warning", "base.py", "gate base-tests: rule"),
        ("error", "ci.yml", "gate diff-policy: rule"),
        ("warning", None, "gate lockfiles"),
        ("notice", "esc.py", "gate escapes: rule"),
    ]
    suite = github.to_command(github.ordered(report)[0])
    assert suite == "::error title=gate suite::suite timeout: suite summary"


def test_past_ten_per_level_is_counted_as_hidden() -> None:
    errors = [finding(f"e{i}.py", "error") for i in range(12)]
    warnings = [finding(f"w{i}.py", "warning") for i in range(10)]
    notices = [finding(f"n{i}.py", "notice") for i in range(11)]
    report = Report("needs-review", "b" * 40, "a" * 40, 1.0,
                    (check("escapes", *errors, *warnings, *notices),))
    assert github.hidden(github.ordered(report)) == 3
    assert github.render(report).splitlines()[-1] == (
        "gate: needs-review, 33 annotation(s); GitHub shows 10 per level and step, so 3 are "
        "not shown as annotations")


def test_markdown_body_links_each_finding_to_its_line() -> None:
    f = Finding("src/a b.py", 3, "noqa", "new | escape", "warning", end_line=5)
    report = Report("needs-review", "b" * 40, "a" * 40, 4.25, (
        check("install", status="passed", required=True),
        check("escapes", f),
    ), Isolation("namespaces", "bubblewrap 0.11.0 | per command"))
    links = markdown.Links("https://ghe.example/", "o/r", "a" * 40)
    body = markdown.body(report, links=links, notes=["a note"], changes=["verdict: x → y"])
    assert body == (
        f"### 🟡 gate: **needs-review** for `{'a' * 12}` (base `{'b' * 12}`, 4.2s)\n\n"
        "Isolation of the judged code: **namespaces** (bubblewrap 0.11.0 \\| per command)\n\n"
        "> a note\n\n"
        "**Since the last verdict:**\n- verdict: x → y\n\n"
        "| | check | status | summary | time |\n|---|---|---|---|---|\n"
        "| ✅ | `install` | passed | install summary |  |\n"
        "| 🟡 | `escapes` | review | escapes summary |  |\n\n"
        "**Findings (1)**\n\n"
        f"- [`src/a b.py:3`](https://ghe.example/o/r/blob/{'a' * 40}/src/a%20b.py#L3-L5) "
        "**escapes** (warning): new \\| escape `noqa`\n\n"
        "Run `gate explain CHECK-ID` for what a check means and how to resolve it.\n")


def test_markdown_is_cut_to_githubs_limit() -> None:
    many = [finding(f"{'x' * 300}/{i}.py") for i in range(400)]
    report = Report("needs-review", "b" * 40, "a" * 40, 1.0, (check("escapes", *many),))
    body = markdown.body(report)
    assert "- … and 200 more (all are in the JSON report)" in body
    cut = markdown.truncate(body * 2)
    assert len(cut) == markdown.API_TEXT_LIMIT
    assert cut.endswith("(cut to fit GitHub's limit; the full report is in the job's "
                        "artifacts)\n")
    assert markdown.truncate("short") == "short"
