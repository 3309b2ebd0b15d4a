"""`comment-mode` against a fake GitHub REST API: when the gate's comment is added, edited or
left alone."""
from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.fake_github import REPO, FakeGitHub

from gate.github import publish
from gate.github.client import Api, Pacing
from gate.github.settings import Settings
from gate.models import CheckResult, Finding, Report, Verdict

BASE = "b" * 40
COMMENTS = r".*/issues/7/comments"
EDITS = r".*/issues/comments/\d+"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as server:
        yield server


def report(verdict: Verdict, head: str, *messages: str) -> Report:
    found = tuple(Finding("src/m.py", i + 1, "noqa", m) for i, m in enumerate(messages))
    return Report(verdict, BASE, head, 1.0, (
        CheckResult("escapes", "Escapes", "failed" if found else "passed", False,
                    f"{len(found)} escape(s)", findings=found),))


def post(fake: FakeGitHub, tmp_path: Path, rep: Report, mode: str) -> None:
    fake.pulls[7] = rep.head
    settings = Settings(token="t", api_url=fake.api_url, repository=REPO, pr_number=7,
                        step_summary=str(tmp_path / "summary.md"), comment_mode=mode)
    publish.publish(rep, settings, "report.json", api_factory=lambda s: Api(s, Pacing.none()),
                    out=io.StringIO())


def writes(fake: FakeGitHub) -> tuple[int, int]:
    """(comments added, comments edited)"""
    return len(fake.calls("POST", COMMENTS)), len(fake.calls("PATCH", EDITS))


def test_changes_no_comment_on_a_first_pass(fake: FakeGitHub, tmp_path: Path) -> None:
    post(fake, tmp_path, report("pass", "1" * 40), "changes")
    post(fake, tmp_path, report("pass", "2" * 40), "changes")
    assert writes(fake) == (0, 0)


def test_changes_edits_only_when_something_changed(fake: FakeGitHub, tmp_path: Path) -> None:
    post(fake, tmp_path, report("needs-review", "1" * 40, "new escape"), "changes")
    assert writes(fake) == (1, 0)
    # A new push with the same finding (moved a line down by an edit above it): nothing new.
    post(fake, tmp_path, report("needs-review", "2" * 40, "new escape"), "changes")
    assert writes(fake) == (1, 0)
    # Same verdict, same count, another finding: edited.
    post(fake, tmp_path, report("needs-review", "3" * 40, "another escape"), "changes")
    assert writes(fake) == (1, 1)
    # Fixed: the comment says so.
    post(fake, tmp_path, report("pass", "4" * 40), "changes")
    assert writes(fake) == (1, 2)
    (body,) = [c["body"] for c in fake.comments.values()]
    assert "gate: **pass** for `444444444444`" in body
    assert "- verdict: needs-review → **pass** (was for `333333333333`)" in body


def test_always_edits_every_time(fake: FakeGitHub, tmp_path: Path) -> None:
    post(fake, tmp_path, report("pass", "1" * 40), "always")
    post(fake, tmp_path, report("pass", "2" * 40), "always")
    assert writes(fake) == (1, 1)


def test_failures_comments_on_failures_and_updates_on_the_pass_after(
    fake: FakeGitHub, tmp_path: Path
) -> None:
    post(fake, tmp_path, report("pass", "1" * 40), "failures")
    assert writes(fake) == (0, 0)
    post(fake, tmp_path, report("needs-review", "2" * 40, "e"), "failures")
    post(fake, tmp_path, report("needs-review", "3" * 40, "e"), "failures")
    assert writes(fake) == (1, 1)
    post(fake, tmp_path, report("pass", "4" * 40), "failures")
    assert writes(fake) == (1, 2)


def test_off_never_reads_or_writes_comments(fake: FakeGitHub, tmp_path: Path) -> None:
    post(fake, tmp_path, report("fail", "1" * 40, "e"), "off")
    assert writes(fake) == (0, 0)
    assert fake.calls("GET", COMMENTS) == []
    assert fake.check_runs  # the check run is still posted
