"""Everything the GitHub side needs, read once from an environment mapping into a frozen record.

The Action passes its inputs as `GATE_*` variables (never through `${{ }}` in a script); GitHub
sets the `GITHUB_*` ones. The pull request comes from the event file, or from `GATE_PR` (the
`workflow_run` pattern, where a fork's event carries no pull request).
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from gate.errors import GateError

FAIL_ON = ("fail", "needs-review", "never")
MODES = ("local", "checks", "auto")
COMMENT_MODES = ("always", "changes", "failures", "off")
DEFAULT_LABEL = "gate: needs-review"


@dataclasses.dataclass(frozen=True)
class Settings:
    token: str | None = None
    api_url: str = "https://api.github.com"
    server_url: str = "https://github.com"
    repository: str | None = None  # owner/name
    pr_number: int | None = None
    event_head_sha: str | None = None  # pull_request.head.sha, not GITHUB_SHA (a merge commit)
    step_summary: str | None = None
    output: str | None = None
    run_url: str | None = None
    logs_url: str | None = None  # the uploaded artifact with every command's full output
    job: str | None = None  # GITHUB_JOB: this job's own check run is not one to wait for
    check_name: str = "gate"
    comment_mode: str = "changes"  # see gate.github.comment.reason_to_skip
    label: str = DEFAULT_LABEL
    fail_on: str = "fail"
    mode: str = "local"
    required_checks: tuple[str, ...] = ()
    stabilization_seconds: float = 60.0
    agent_accounts: tuple[str, ...] = ()  # logins whose approval never counts (the agents')

    @property
    def can_post(self) -> bool:
        return bool(self.token and self.repository)


def _bool(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise GateError(f"{name}={value!r}: expected true or false")


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise GateError(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def _number(name: str, value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise GateError(f"{name}={value!r}: expected a number of seconds") from None
    if number < 0:
        raise GateError(f"{name}={value!r}: expected a number of seconds, 0 or more")
    return number


def _event(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise GateError(f"cannot read the GitHub event file {path}: {e}") from None
    return data if isinstance(data, dict) else {}


def _pull_request(event: Mapping[str, Any]) -> tuple[int | None, str | None]:
    pr = event.get("pull_request")
    if isinstance(pr, dict) and isinstance(pr.get("number"), int):
        head = pr.get("head")
        sha = head.get("sha") if isinstance(head, dict) else None
        return pr["number"], sha if isinstance(sha, str) else None
    run = event.get("workflow_run")
    if not isinstance(run, dict):
        return None, None
    prs = run.get("pull_requests")
    number = prs[0].get("number") if isinstance(prs, list) and prs and isinstance(
        prs[0], dict) else None
    sha = run.get("head_sha")
    return (number if isinstance(number, int) else None), sha if isinstance(sha, str) else None


def _names(value: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in value.replace(",", "\n").splitlines() if n.strip())


def _comment_mode(get: Callable[[str, str], str]) -> str:
    """`comment-mode`; the older `comment: false` is `off`."""
    mode = _choice("GATE_COMMENT_MODE", get("GATE_COMMENT_MODE", "changes"), COMMENT_MODES)
    return mode if _bool("GATE_COMMENT", get("GATE_COMMENT", "true")) else "off"


def from_env(env: Mapping[str, str]) -> Settings:
    def get(name: str, default: str = "") -> str:
        value = env.get(name, "")
        return value if value.strip() else default

    pr_number, head_sha = _pull_request(_event(get("GITHUB_EVENT_PATH") or None))
    if get("GATE_PR"):
        try:
            pr_number = int(get("GATE_PR"))
        except ValueError:
            raise GateError(f"GATE_PR={get('GATE_PR')!r}: expected a pull request number") from None
    server = get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repository = get("GITHUB_REPOSITORY") or None
    run_id = get("GITHUB_RUN_ID")
    return Settings(
        token=get("GATE_GITHUB_TOKEN") or get("GITHUB_TOKEN") or None,
        api_url=get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
        server_url=server,
        repository=repository,
        pr_number=pr_number,
        event_head_sha=head_sha,
        step_summary=get("GITHUB_STEP_SUMMARY") or None,
        output=get("GITHUB_OUTPUT") or None,
        run_url=f"{server}/{repository}/actions/runs/{run_id}" if repository and run_id else None,
        logs_url=get("GATE_LOGS_URL") or None,
        job=get("GITHUB_JOB") or None,
        check_name=get("GATE_CHECK_NAME", "gate"),
        comment_mode=_comment_mode(get),
        label=env.get("GATE_LABEL", DEFAULT_LABEL).strip(),
        fail_on=_choice("GATE_FAIL_ON", get("GATE_FAIL_ON", "fail"), FAIL_ON),
        mode=_choice("GATE_MODE", get("GATE_MODE", "local"), MODES),
        required_checks=_names(get("GATE_REQUIRED_CHECKS")),
        stabilization_seconds=_number("GATE_STABILIZATION_SECONDS",
                                      get("GATE_STABILIZATION_SECONDS", "60")),
        agent_accounts=tuple(n.removeprefix("@") for n in _names(get("GATE_AGENT_ACCOUNTS"))),
    )
