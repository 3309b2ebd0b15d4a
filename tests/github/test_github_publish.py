"""`gate publish` against a fake GitHub REST API on 127.0.0.1: the exact requests and payloads."""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.fake_github import REPO, FakeGitHub

from gate import cli
from gate.github import publish
from gate.github.client import Api, Pacing
from gate.github.settings import Settings
from gate.models import CheckResult, Finding, Report

HEAD = "a" * 40
BASE = "b" * 40
RUNS = r"/api/v3/repos/octo/widgets/check-runs(/\d+)?"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as server:
        server.pulls[7] = HEAD
        yield server


def settings(fake: FakeGitHub, tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "token": "secret-token", "api_url": fake.api_url, "repository": REPO, "pr_number": 7,
        "step_summary": str(tmp_path / "summary.md"), "output": str(tmp_path / "output.txt"),
    }
    values.update(overrides)
    return Settings(**values)


def report(verdict: str = "needs-review", findings: int = 1, head: str = HEAD) -> Report:
    found = tuple(Finding(f"src/m{i}.py", i + 1, "noqa", f"new escape {i}", "warning")
                  for i in range(findings))
    return Report(verdict, BASE, head, 2.0, (
        CheckResult("install", "Installs", "passed", True, "`true` succeeded"),
        CheckResult("escapes", "Escapes", "failed" if found else "passed", False,
                    f"{findings} escape(s)", findings=found),
    ))


def post(fake: FakeGitHub, tmp_path: Path, rep: Report, **overrides: object) -> tuple[int, str]:
    out = io.StringIO()
    code = publish.publish(rep, settings(fake, tmp_path, **overrides), "report.json",
                           api_factory=lambda s: Api(s, Pacing.none()), out=out)
    return code, out.getvalue()


def annotations_sent(fake: FakeGitHub) -> list[int]:
    return [len(r.body["output"]["annotations"]) for r in fake.requests
            if r.method in ("POST", "PATCH") and "check-runs" in r.path]


def test_120_findings_are_one_create_and_updates_of_at_most_50(
    fake: FakeGitHub, tmp_path: Path
) -> None:
    code, _ = post(fake, tmp_path, report(findings=120))
    assert code == 0  # needs-review, fail-on fail
    creates = fake.calls("POST", RUNS)
    updates = fake.calls("PATCH", RUNS)
    assert len(creates) == 1
    assert annotations_sent(fake) == [50, 50, 20]
    assert creates[0].body["head_sha"] == HEAD
    assert [u.body["status"] for u in updates] == ["in_progress", "completed"]
    assert updates[-1].body["conclusion"] == "action_required"
    (run,) = fake.check_runs.values()
    assert len(run["annotations"]) == 120
    assert run["annotations"][0] == {
        "path": "src/m0.py", "start_line": 1, "end_line": 1, "annotation_level": "warning",
        "title": "gate escapes: noqa", "message": "new escape 0"}
    assert run["output"]["title"] == "needs-review: 120 findings"
    assert all(r.authorization == "token secret-token" for r in fake.requests)


def test_start_then_publish_completes_the_same_run(fake: FakeGitHub, tmp_path: Path) -> None:
    out = io.StringIO()
    s = settings(fake, tmp_path, event_head_sha=HEAD, run_url="https://x/runs/1")
    publish.start(s, api_factory=lambda s: Api(s, Pacing.none()), out=out)
    (run,) = fake.check_runs.values()
    assert (run["status"], run["head_sha"], run["details_url"]) == (
        "in_progress", HEAD, "https://x/runs/1")
    post(fake, tmp_path, report("pass", findings=0))
    assert len(fake.check_runs) == 1
    assert (run["status"], run["conclusion"]) == ("completed", "success")
    assert len(fake.calls("POST", RUNS)) == 1


def test_a_second_run_edits_the_comment(fake: FakeGitHub, tmp_path: Path) -> None:
    other = fake.add_comment(7, "LGTM from a person")
    post(fake, tmp_path, report("needs-review", findings=2))
    post(fake, tmp_path, report("pass", findings=0))
    assert len(fake.calls("POST", r".*/issues/7/comments")) == 1
    assert len(fake.calls("PATCH", r".*/issues/comments/\d+")) == 1
    ours = [c for i, c in fake.comments.items() if i != other]
    assert len(ours) == 1
    body = ours[0]["body"]
    assert body.startswith("<!-- gate:comment gate -->\n")
    assert "gate: **pass**" in body
    assert "- verdict: needs-review → **pass** (was for `aaaaaaaaaaaa`)" in body
    assert "- `escapes`: failed → passed" in body
    assert "- findings: 2 → 0" in body
    assert fake.comments[other]["body"] == "LGTM from a person"


def test_the_comment_is_found_past_the_first_page(fake: FakeGitHub, tmp_path: Path) -> None:
    for i in range(35):
        fake.add_comment(7, f"comment {i}")
    post(fake, tmp_path, report(), comment_mode="always")
    pages = fake.calls("GET", r".*/issues/7/comments")
    post(fake, tmp_path, report(), comment_mode="always")
    assert len(fake.calls("GET", r".*/issues/7/comments")) - len(pages) == 2  # Link followed
    assert len(fake.calls("POST", r".*/issues/7/comments")) == 1
    assert len(fake.calls("PATCH", r".*/issues/comments/\d+")) == 1


def test_label_added_on_needs_review_and_removed_on_pass(
    fake: FakeGitHub, tmp_path: Path
) -> None:
    post(fake, tmp_path, report("needs-review"))
    assert fake.labels[7] == ["gate: needs-review"]
    post(fake, tmp_path, report("pass", findings=0))
    assert fake.labels[7] == []
    post(fake, tmp_path, report("pass", findings=0))  # absent label: the 404 is no error
    assert fake.labels[7] == []


def test_a_moved_head_posts_no_success(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.pulls[7] = "c" * 40
    fake.labels[7] = ["gate: needs-review"]
    code, out = post(fake, tmp_path, report("pass", findings=0))
    (run,) = fake.check_runs.values()
    assert run["head_sha"] == HEAD
    assert run["conclusion"] == "cancelled"
    assert run["output"]["title"] == "result discarded: the branch moved on from aaaaaaaaaaaa"
    assert not fake.calls("POST", r".*/comments") and not fake.calls("DELETE", r".*")
    assert fake.labels[7] == ["gate: needs-review"]  # a stale pass clears nothing
    summary = (tmp_path / "summary.md").read_text()
    assert ("the result for `aaaaaaaaaaaa` was discarded (the head is now `cccccccccccc`)"
            in summary)
    assert "::warning::The branch moved while the gate ran" in out
    assert code == 0


def test_a_stale_failure_still_fails_its_commit(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.pulls[7] = "c" * 40
    code, _ = post(fake, tmp_path, report("fail"))
    (run,) = fake.check_runs.values()
    assert run["conclusion"] == "failure"
    assert code == 1


def test_a_403_falls_back_to_workflow_commands(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.forbidden = [("POST", r"/check-runs"), ("POST", r"/issues/\d+/comments"),
                      ("POST", r"/issues/\d+/labels")]
    code, out = post(fake, tmp_path, report("needs-review", findings=2))
    lines = [line for line in out.splitlines()
             if not line.startswith(("::group::", "| ", "::endgroup::"))]
    assert lines[:2] == [
        "::warning file=src/m0.py,line=1,endLine=1,title=gate escapes%3A noqa::new escape 0",
        "::warning file=src/m1.py,line=2,endLine=2,title=gate escapes%3A noqa::new escape 1",
    ]
    refused = [line for line in lines if "refused" in line]
    assert refused == ["::warning::The token was refused (403) for the check run, comment, "
                       "label: the results are in the workflow annotations and this job summary "
                       "only. A fork's pull request gets a read-only token: see the "
                       "two-workflow pattern in docs/action.md."]
    assert "The token was refused (403)" in (tmp_path / "summary.md").read_text()
    assert len(fake.calls("POST", r".*/check-runs")) == 1  # no retries
    assert code == 0


def test_without_a_token_nothing_is_requested(fake: FakeGitHub, tmp_path: Path) -> None:
    code, out = post(fake, tmp_path, report("fail"), token=None)
    assert fake.requests == []
    assert out.count("No GitHub token") == 1
    assert code == 1


def test_summary_and_outputs(fake: FakeGitHub, tmp_path: Path) -> None:
    post(fake, tmp_path, report("needs-review", findings=12))
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("### 🟡 gate: **needs-review** for `aaaaaaaaaaaa`")
    assert "| 🟡 | `escapes` | review | 12 escape(s) |" in summary
    assert ("- [`src/m0.py:1`](https://github.com/octo/widgets/blob/" + HEAD
            + "/src/m0.py#L1) **escapes** (warning): new escape 0 `noqa`") in summary
    assert "> 2 of 12 annotations are not shown on this step" in summary
    assert (tmp_path / "output.txt").read_text() == (
        "verdict<<GATE_EOF\nneeds-review\nGATE_EOF\n"
        "report<<GATE_EOF\nreport.json\nGATE_EOF\n"
        "summary<<GATE_EOF\nneeds-review: 12 findings (escapes review)\nGATE_EOF\n"
        "passed<<GATE_EOF\n\nGATE_EOF\nfailed<<GATE_EOF\n\nGATE_EOF\nflaky<<GATE_EOF\n\nGATE_EOF\n")


@pytest.mark.parametrize(("fail_on", "verdict", "code", "conclusion"), [
    ("fail", "fail", 1, "failure"),
    ("fail", "needs-review", 0, "action_required"),
    ("needs-review", "needs-review", 3, "failure"),
    ("never", "needs-review", 0, "action_required"),
    ("never", "fail", 0, "neutral"),
    ("never", "pass", 0, "success"),
])
def test_fail_on(fake: FakeGitHub, tmp_path: Path, fail_on: str, verdict: str, code: int,
                 conclusion: str) -> None:
    assert post(fake, tmp_path, report(verdict), fail_on=fail_on)[0] == code
    (run,) = fake.check_runs.values()
    assert run["conclusion"] == conclusion


def test_cli_publish_reads_a_report_from_gate_run(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The JSON that `gate run --report` writes, posted by `gate publish`, settings from env."""
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report("needs-review", findings=3).to_json()))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7, "head": {"sha": HEAD}}}))
    for key, value in {
        "GATE_GITHUB_TOKEN": "tok", "GITHUB_API_URL": fake.api_url, "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_PATH": str(event), "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md"),
        "GITHUB_OUTPUT": str(tmp_path / "o.txt"), "GATE_CHECK_NAME": "gate / pr",
        "GATE_LABEL": "",
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(publish, "Api", lambda s: Api(s, Pacing.none()))
    assert cli.main(["publish", "--report", str(path)]) == 0
    assert capsys.readouterr().out.count("::warning file=") == 3
    (run,) = fake.check_runs.values()
    assert (run["name"], len(run["annotations"])) == ("gate / pr", 3)
    assert not fake.calls("POST", r".*/labels")
    assert len(fake.calls("POST", r".*/issues/7/comments")) == 1


def test_a_run_step_that_left_no_report_concludes_the_check_run(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 48: the publish step ran only after a run step that succeeded, so a crash left the
    check run `in_progress` on the pull request. Now it concludes as "could not judge"."""
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7, "head": {"sha": HEAD}}}))
    for key, value in {
        "GATE_GITHUB_TOKEN": "tok", "GITHUB_API_URL": fake.api_url, "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_PATH": str(event), "GITHUB_STEP_SUMMARY": str(tmp_path / "s.md"),
        "GITHUB_OUTPUT": str(tmp_path / "o.txt"), "GATE_RUN_OUTCOME": "failure",
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(publish, "Api", lambda s: Api(s, Pacing.none()))
    assert cli.main(["publish", "--start"]) == 0
    missing = tmp_path / "gate-report.json"
    assert cli.main(["publish", "--report", str(missing)]) == 2
    (run,) = fake.check_runs.values()
    reason = (f"the run step left no report at {missing} (the step's outcome: failure); its "
              "log says why")
    assert (run["status"], run["conclusion"], run["output"]["title"]) == (
        "completed", "failure", "could not judge")
    assert run["output"]["summary"] == f"The gate could not judge: {reason}"
    assert f"::error::the gate could not judge: {reason}" in capsys.readouterr().out


def test_cli_publish_rejects_a_file_that_is_not_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "r.json"
    bad.write_text('{"verdict": "pass"}')
    assert cli.main(["publish", "--report", str(bad)]) == 2
    assert "is not a gate JSON report" in capsys.readouterr().err


# --- only a person turns needs-review into a pass ---------------------------------------


def _approving(fake: FakeGitHub, login: str, sha: str = HEAD, permission: str = "write") -> None:
    fake.permissions[login] = permission
    fake.review(7, login, "APPROVED", sha)


def test_needs_review_blocks_the_merge_until_a_person_approves(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """Issue 48: needs-review concluded `neutral`, which branch protection counts as passing."""
    assert post(fake, tmp_path, report())[0] == 0
    (run,) = fake.check_runs.values()
    assert run["conclusion"] == "action_required"
    assert publish.APPROVE in (tmp_path / "summary.md").read_text()


def test_an_approval_by_a_maintainer_of_that_head_concludes_success(
        fake: FakeGitHub, tmp_path: Path) -> None:
    fake.authors[7] = "agent-bot"
    _approving(fake, "maintainer")
    code, _ = post(fake, tmp_path, report(), fail_on="needs-review")
    (run,) = fake.check_runs.values()
    assert (code, run["conclusion"]) == (0, "success")
    assert run["output"]["title"] == "approved by @maintainer: needs-review: 1 finding"
    assert fake.calls("GET", r"/api/v3/repos/octo/widgets/collaborators/maintainer/permission")


@pytest.mark.parametrize(("login", "sha", "permission", "why"), [
    ("agent-bot", HEAD, "admin", "@agent-bot is the pull request's author"),
    ("copilot-swe", HEAD, "write", "@copilot-swe is an agent's account"),
    ("maintainer", "c" * 40, "write",
     f"@maintainer approved {'c' * 12}, not this head {HEAD[:12]}: a new push needs a new "
     "approval"),
    ("passer-by", HEAD, "read", "@passer-by has no write access to the repository"),
    ("review-app[bot]", HEAD, "write", "@review-app[bot] is an app's account, not a person's"),
])
def test_an_approval_the_gate_does_not_accept(fake: FakeGitHub, tmp_path: Path, login: str,
                                              sha: str, permission: str, why: str) -> None:
    """The author (here the agent's own account), an agent named in `agent-accounts`, an
    approval of an older head, one without write access: none turns the check green."""
    fake.authors[7] = "agent-bot"
    _approving(fake, login, sha, permission)
    code, _ = post(fake, tmp_path, report(), fail_on="needs-review",
                   agent_accounts=("copilot-swe",))
    (run,) = fake.check_runs.values()
    assert (code, run["conclusion"]) == (3, "failure")
    assert f"An approval that does not count: {why}." in (tmp_path / "summary.md").read_text()


def test_an_approval_taken_back_by_a_request_for_changes_holds_no_more(
        fake: FakeGitHub, tmp_path: Path) -> None:
    _approving(fake, "maintainer")
    fake.review(7, "maintainer", "CHANGES_REQUESTED", HEAD)
    post(fake, tmp_path, report())
    (run,) = fake.check_runs.values()
    assert run["conclusion"] == "action_required"
