"""The few REST calls the gate makes, through PyGithub. The only module of gate that imports it.

Everything else in gate.github talks to `Api`, so it sees plain values and two errors:
`Forbidden` (403: a read-only token, as a fork's pull request gets) and `ApiError`.
`Pacing` makes PyGithub's waits injectable: by default it waits between writes and retries
rate-limited requests for up to a minute; tests pass `Pacing.none()`.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import github
from github import Auth, GithubException
from github.GithubRetry import GithubRetry
from urllib3.util.retry import Retry

from gate.github.settings import Settings

T = TypeVar("T")


class ApiError(RuntimeError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Forbidden(ApiError):
    """The token may not do this (HTTP 403)."""


@dataclasses.dataclass(frozen=True)
class Pacing:
    seconds_between_requests: float = 0.25
    seconds_between_writes: float = 1.0
    retry: int | Retry = dataclasses.field(default_factory=GithubRetry)
    timeout: int = 15

    @classmethod
    def none(cls) -> Pacing:
        """No waits and no retries: for tests and for servers without rate limits."""
        return cls(0.0, 0.0, 0, 15)


@dataclasses.dataclass(frozen=True)
class CheckState:
    name: str
    status: str  # queued, in_progress, completed; for a commit status: its state
    conclusion: str | None
    kind: str = "check run"  # or "status"


@dataclasses.dataclass(frozen=True)
class Review:
    login: str
    state: str  # APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING
    commit_id: str  # the head SHA the review was given on


@contextmanager
def _translated() -> Iterator[None]:
    try:
        yield
    except GithubException as e:
        message = e.message or (e.data.get("message") if isinstance(e.data, dict) else None)
        text = f"GitHub API answered {e.status}: {message or e.data}"
        if e.status == 403:
            raise Forbidden(e.status, text) from None
        raise ApiError(e.status, text) from None


class Api:
    def __init__(self, settings: Settings, pacing: Pacing | None = None) -> None:
        pacing = pacing or Pacing()
        if not settings.repository:
            raise ValueError("GITHUB_REPOSITORY is not set")
        self._gh = github.Github(
            auth=Auth.Token(settings.token) if settings.token else None,
            base_url=settings.api_url, timeout=pacing.timeout, retry=pacing.retry,
            seconds_between_requests=pacing.seconds_between_requests,
            seconds_between_writes=pacing.seconds_between_writes, lazy=True,
            user_agent="gate",
        )
        self._repo = self._gh.get_repo(settings.repository)

    def _call(self, fn: Callable[[], T]) -> T:
        with _translated():
            return fn()

    def create_pull(self, head: str, base: str, title: str, body: str) -> tuple[int, str]:
        """Open a pull request of branch `head` into `base`: its number and its page."""
        pull = self._call(lambda: self._repo.create_pull(base=base, head=head, title=title,
                                                         body=body))
        return int(pull.number), str(pull.html_url)

    def pull_head_sha(self, number: int) -> str:
        return self._call(lambda: str(self._repo.get_pull(number).head.sha))

    def pull_author(self, number: int) -> str:
        return self._call(lambda: str(self._repo.get_pull(number).user.login))

    def reviews(self, number: int) -> list[Review]:
        """The pull request's reviews, oldest first."""
        return self._call(lambda: [
            Review(str(r.user.login) if r.user else "", str(r.state), str(r.commit_id or ""))
            for r in self._repo.get_pull(number).get_reviews()])

    def permission(self, login: str) -> str:
        """`login`'s permission on the repository: admin, maintain, write, triage, read, none."""
        return self._call(lambda: str(self._repo.get_collaborator_permission(login)))

    def create_check_run(self, name: str, sha: str, **fields: Any) -> int:
        run = self._call(lambda: self._repo.create_check_run(name=name, head_sha=sha, **fields))
        return int(run.id)

    def update_check_run(self, run_id: int, **fields: Any) -> None:
        self._call(lambda: self._repo.get_check_run(run_id).edit(**fields))

    def find_check_run(self, name: str, sha: str) -> int | None:
        """The newest check run called `name` on `sha`, if any."""
        runs = self._call(lambda: list(
            self._repo.get_commit(sha).get_check_runs(check_name=name)))
        return max((int(r.id) for r in runs), default=None)

    def checks(self, sha: str) -> list[CheckState]:
        """Every check run and commit status on `sha` (the latest status of each context)."""
        commit = self._repo.get_commit(sha)
        runs = self._call(lambda: [
            CheckState(r.name, r.status, r.conclusion) for r in commit.get_check_runs()])
        statuses = self._call(lambda: [
            CheckState(s.context, s.state, s.state, "status")
            for s in commit.get_combined_status().statuses])
        return runs + statuses

    def comments(self, number: int) -> list[tuple[int, str]]:
        return self._call(lambda: [
            (int(c.id), c.body or "") for c in self._repo.get_issue(number).get_comments()])

    def create_comment(self, number: int, body: str) -> int:
        return self._call(lambda: int(self._repo.get_issue(number).create_comment(body).id))

    def edit_comment(self, number: int, comment_id: int, body: str) -> None:
        self._call(lambda: self._repo.get_issue(number).get_comment(comment_id).edit(body))

    def add_label(self, number: int, label: str) -> None:
        self._call(lambda: self._repo.get_issue(number).add_to_labels(label))

    def remove_label(self, number: int, label: str) -> None:
        """Remove `label`; a label that is not there is no error."""
        try:
            self._call(lambda: self._repo.get_issue(number).remove_from_labels(label))
        except ApiError as e:
            if e.status != 404:
                raise


ApiFactory = Callable[[Settings], Api]
