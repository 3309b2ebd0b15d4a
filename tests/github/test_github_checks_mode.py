"""Mode `checks`: wait for the other checks on the head SHA (fake API, fake clock: no sleep)."""
from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.fake_github import REPO, FakeGitHub

from gate.github import modes, publish
from gate.github.client import Api, Pacing
from gate.github.required_checks import Waiting
from gate.github.settings import Settings
from gate.models import CheckResult, Report

HEAD = "a" * 40


class Clock:
    """Time that moves only when the code under test sleeps; `on_sleep` changes the world."""

    def __init__(self, on_sleep: Callable[[int], None] = lambda n: None) -> None:
        self.now = 0.0
        self.sleeps = 0
        self.on_sleep = on_sleep

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.now += seconds
        self.on_sleep(self.sleeps)

    def waiting(self) -> Waiting:
        return Waiting(timeout=600, poll=10, clock=self, sleep=self.sleep)


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as server:
        server.pulls[7] = HEAD
        yield server


def settings(fake: FakeGitHub, tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "token": "t", "api_url": fake.api_url, "repository": REPO, "pr_number": 7,
        "mode": "checks", "check_name": "gate", "job": "gate-job", "event_head_sha": HEAD,
        "stabilization_seconds": 30.0, "step_summary": str(tmp_path / "summary.md")}
    values.update(overrides)
    return Settings(**values)


def scan_report() -> Report:
    return Report("pass", "b" * 40, HEAD, 1.0, (
        CheckResult("install", "Installs", "skipped", True, "not run by `gate scan`"),
        CheckResult("escapes", "Escapes", "passed", False, "no new escapes")))


def judge(fake: FakeGitHub, tmp_path: Path, clock: Clock, **overrides: object) -> tuple[int, dict]:
    path = tmp_path / "report.json"
    code = publish.publish(scan_report(), settings(fake, tmp_path, **overrides), str(path),
                           api_factory=lambda s: Api(s, Pacing.none()), out=io.StringIO(),
                           waiting=clock.waiting())
    written = json.loads(path.read_text())
    return code, written


def required(report: dict) -> dict:
    return next(c for c in report["checks"] if c["id"] == "required-checks")


def test_passes_when_every_required_check_succeeded(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_check_run(HEAD, "build", "in_progress", None)
    fake.add_status(HEAD, "ci/lint", "pending")

    def finish(n: int) -> None:
        if n == 2:
            for run in fake.check_runs.values():
                run.update(status="completed", conclusion="success")
            fake.add_status(HEAD, "ci/lint", "success")

    clock = Clock(finish)
    code, report = judge(fake, tmp_path, clock, required_checks=("build", "ci/lint"))
    assert (code, report["verdict"]) == (0, "pass")
    assert required(report)["status"] == "passed"
    assert required(report)["summary"] == "2 of 2 checks succeeded: build, ci/lint"
    assert clock.sleeps == 2
    ours = [r for r in fake.check_runs.values() if r["name"] == "gate"]
    assert [r["conclusion"] for r in ours] == ["success"]


@pytest.mark.parametrize("conclusion", ["skipped", "neutral", "cancelled", "timed_out",
                                        "failure"])
def test_anything_but_success_fails(fake: FakeGitHub, tmp_path: Path, conclusion: str) -> None:
    fake.add_check_run(HEAD, "build", "completed", "success")
    fake.add_check_run(HEAD, "test", "completed", conclusion)
    code, report = judge(fake, tmp_path, Clock(), required_checks=("build", "test"))
    assert (code, report["verdict"]) == (1, "fail")
    assert required(report)["summary"] == f"did not succeed: test ({conclusion})"


def test_times_out_when_a_required_check_never_appears(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_check_run(HEAD, "build", "completed", "success")
    fake.add_check_run("c" * 40, "tests", "completed", "success")  # another commit's
    clock = Clock()
    code, report = judge(fake, tmp_path, clock, required_checks=("build", "tests"))
    assert (code, report["verdict"]) == (1, "fail")
    assert required(report)["status"] == "timeout"
    assert required(report)["summary"] == (
        "required check(s) never appeared on aaaaaaaaaaaa within 600s: tests. Check the names "
        "against the checks on the commit")
    assert clock.now == 600
    assert "never appeared" in (tmp_path / "summary.md").read_text()


def test_unpinned_waits_for_the_set_to_stay_unchanged(fake: FakeGitHub, tmp_path: Path) -> None:
    fake.add_check_run(HEAD, "gate", "in_progress", None)  # our own run: ignored
    fake.add_check_run(HEAD, "gate-job", "in_progress", None)  # this job: ignored
    fake.add_check_run(HEAD, "build", "completed", "success")

    def late(n: int) -> None:
        if n == 2:
            fake.add_check_run(HEAD, "lint", "completed", "success")

    clock = Clock(late)
    code, report = judge(fake, tmp_path, clock)
    assert required(report)["summary"] == (
        "unpinned (no required-checks named): 2 of 2 checks succeeded: build, lint")
    assert clock.now == 50  # lint appeared at 20s; unchanged through 50s
    assert code == 0


def test_without_a_token_checks_mode_cannot_pass(fake: FakeGitHub, tmp_path: Path) -> None:
    code, report = judge(fake, tmp_path, Clock(), token=None)
    assert (code, report["verdict"], required(report)["status"]) == (1, "fail", "error")
    assert fake.requests == []


def test_auto_picks_checks_only_if_one_appears(fake: FakeGitHub, tmp_path: Path) -> None:
    s = settings(fake, tmp_path, mode="auto")

    def factory(s: Settings) -> Api:
        return Api(s, Pacing.none())

    clock = Clock()
    assert modes.choose_mode(s, api_factory=factory, waiting=clock.waiting()) == "local"
    assert clock.now == 30
    clock = Clock(lambda n: fake.add_check_run(HEAD, "build", "queued", None))
    assert modes.choose_mode(s, api_factory=factory, waiting=clock.waiting()) == "checks"
    assert clock.now == 10
