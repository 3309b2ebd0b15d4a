"""Settings: read once from an environment mapping; bad values say what was expected."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.errors import GateError
from gate.github.settings import Settings, from_env


def test_defaults_without_github() -> None:
    assert from_env({}) == Settings()
    assert not Settings().can_post


def test_a_pull_request_event(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 12, "head": {"sha": "h" * 40}, "base": {"sha": "b" * 40}}}))
    s = from_env({
        "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "99",
        "GITHUB_API_URL": "https://ghe.example/api/v3/", "GITHUB_SERVER_URL": "https://ghe.example",
        "GATE_GITHUB_TOKEN": "t", "GITHUB_TOKEN": "other", "GATE_LABEL": "",
        "GATE_COMMENT": "false", "GATE_FAIL_ON": "needs-review", "GATE_MODE": "checks",
        "GATE_REQUIRED_CHECKS": "build, lint\ntest / py3.9\n",
        "GATE_STABILIZATION_SECONDS": "2.5", "GATE_CHECK_NAME": "gate / pr",
    })
    assert s == Settings(
        token="t", api_url="https://ghe.example/api/v3", server_url="https://ghe.example",
        repository="o/r", pr_number=12, event_head_sha="h" * 40, step_summary=None,
        output=None, run_url="https://ghe.example/o/r/actions/runs/99", check_name="gate / pr",
        comment_mode="off", label="", fail_on="needs-review", mode="checks",
        required_checks=("build", "lint", "test / py3.9"), stabilization_seconds=2.5)
    assert s.can_post


def test_a_workflow_run_event_and_an_explicit_pr(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"workflow_run": {"head_sha": "h" * 40, "pull_requests": []}}))
    s = from_env({"GITHUB_EVENT_PATH": str(event), "GITHUB_TOKEN": "t"})
    assert (s.pr_number, s.event_head_sha, s.token) == (None, "h" * 40, "t")
    assert from_env({"GITHUB_EVENT_PATH": str(event), "GATE_PR": "5"}).pr_number == 5


@pytest.mark.parametrize(("env", "message"), [
    ({"GATE_FAIL_ON": "sometimes"},
     "GATE_FAIL_ON='sometimes': expected one of fail, needs-review, never"),
    ({"GATE_MODE": "remote"}, "GATE_MODE='remote': expected one of local, checks, auto"),
    ({"GATE_COMMENT": "maybe"}, "GATE_COMMENT='maybe': expected true or false"),
    ({"GATE_STABILIZATION_SECONDS": "-1"},
     "GATE_STABILIZATION_SECONDS='-1': expected a number of seconds, 0 or more"),
    ({"GATE_PR": "x"}, "GATE_PR='x': expected a pull request number"),
    ({"GITHUB_EVENT_PATH": "/nonexistent/event.json"},
     "cannot read the GitHub event file /nonexistent/event.json"),
])
def test_bad_values(env: dict[str, str], message: str) -> None:
    with pytest.raises(GateError) as e:
        from_env(env)
    assert str(e.value).startswith(message)
