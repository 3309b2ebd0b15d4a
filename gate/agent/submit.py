"""`gate submit`: commit the working tree to a branch, judge it with the whole gate (or, with
`quick`, the quick check of gate/quick/, which is not the gate and not counted as an attempt),
and answer in one bounded form a model can act on. Knows nothing about who called it."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

from gate.agent import attempts, fault, feedback, snapshot
from gate.agent import cap as caps
from gate.agent.fault import Fault
from gate.engine import runner
from gate.engine.verdict import EXIT_CANNOT_JUDGE, EXIT_CODES, exit_code
from gate.errors import GateError
from gate.execution import workspace
from gate.github.settings import Settings, from_env
from gate.models import Report, Verdict
from gate.quick import runner as quick_runner
from gate.quick import told
from gate.vcs import git

EXIT_CAP = 5
NOT_YOUR_FAULT = ("This is not the change's fault: do not change any code for it. A person "
                  "must fix the machine (network, tools) or the project's setup, then "
                  "submit again.")


@dataclasses.dataclass(frozen=True)
class Request:
    base: str
    repo: str = "."
    branch: str | None = None  # default: gate/submit/<current branch>
    message: str = "gate submit"
    max_attempts: int | None = None  # None: the cap; less lowers it, more is refused
    fixed_cap: int | None = None  # set by whoever starts `gate mcp --max-attempts N`
    open_pr: bool = False
    remote: str = "origin"
    quick: bool = False  # `gate run --quick`: not the full gate, not counted as an attempt


@dataclasses.dataclass(frozen=True)
class Answer:
    verdict: Verdict | None  # None: the gate could not judge
    attempt: int
    attempts_left: int
    fault: Fault
    branch: str
    head: str
    feedback: str
    exit_code: int
    pull_request: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "verdict": self.verdict, "attempt": self.attempt,
            "attempts_left": self.attempts_left, "fault": self.fault, "branch": self.branch,
            "head": self.head, "feedback": self.feedback}
        if self.pull_request:
            data["pull_request"] = self.pull_request
        return data


def _current_branch(repo: str) -> str | None:
    name = git.run(repo, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    return name.decode().strip() or None


def branch_name(repo: str, given: str | None) -> str:
    """`given`, or `gate/submit/<current branch>`; never the branch checked out here (its
    ref would move under the user's index)."""
    current = _current_branch(repo)
    name = given or (f"gate/submit/{current}" if current else "gate/submit")
    if git.run(repo, "check-ref-format", "--branch", name, check=False) == b"":
        raise GateError(f"--branch {name!r} is not a valid branch name")
    if name == current:
        raise GateError(f"--branch {name} is the branch checked out here: gate submit commits "
                        "to another branch and leaves yours as it is; drop --branch or name "
                        "a new one")
    return name


def _tip(repo: str, branch: str) -> str | None:
    found = git.run(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}",
                    check=False)
    return found.decode().strip() or None


def commit_to_branch(repo: str, branch: str, message: str) -> str:
    """The working tree committed on the branch's tip (else on HEAD); the index, HEAD and the
    files are left as they were. The branch's new SHA, read back."""
    old = _tip(repo, branch)
    parent = old or (git.text(repo, "rev-parse", "HEAD").strip()
                     if snapshot.has_head(repo) else None)
    made = snapshot.commit(repo, parent, message)
    git.run(repo, "update-ref", "-m", "gate submit", f"refs/heads/{branch}", made,
            old or "0" * 40)
    return git.resolve_commit(repo, f"refs/heads/{branch}")


def _header(verdict: str, branch: str, head: str, used: int, cap: int) -> str:
    left = cap - used
    text = (f"gate submit: {verdict} for branch {branch} at {head[:12]} "
            f"(attempt {used} of {cap}; {left} left).")
    if verdict != "pass" and left == 0:
        text += " That was the last attempt: a person must look before anything else is sent."
    return text


def _quick_header(verdict: str, branch: str, head: str, used: int, cap: int) -> str:
    return (f"gate submit --quick: {verdict} for branch {branch} at {head[:12]}. "
            f"{told.NOT_THE_GATE}: not counted as an attempt ({cap - used} of {cap} left); "
            "`gate submit` without --quick gives the gate's verdict.")


def _verdict(value: str | None) -> Verdict | None:
    for known in EXIT_CODES:
        if value == known:
            return known
    return None


def _capped(request: Request, branch: str, limit: int, done: attempts.Attempts) -> Answer:
    """The answer once the cap is reached: nothing committed, nothing judged, exit 5."""
    text = (f"gate submit: attempt limit reached for branch {branch} against {request.base}: "
            f"{done.used} of {limit} attempts used for this change, under any branch name "
            f"(the last: {done.last_verdict or 'could not judge'}). Nothing was judged. A "
            "person must look: do not submit again.")
    last: Fault = "infrastructure" if done.last_fault == "infrastructure" else "change"
    return Answer(_verdict(done.last_verdict), done.used, 0, last, branch,
                  done.last_head or "", text, EXIT_CAP)


def _cannot_judge(why: str, branch: str, head: str, used: int, cap: int,
                  report: Report | None = None) -> Answer:
    text = (f"gate submit: the gate could not judge branch {branch} at {head[:12]} "
            f"(attempt {used} of {cap}; {cap - used} left): {why}\n{NOT_YOUR_FAULT}")
    if report is not None:
        text = "\n".join([text, "What the gate saw, for the person:",
                           *feedback.sections(report)])
    return Answer(None, used, cap - used, "infrastructure", branch, head,
                  feedback.bound(text), EXIT_CANNOT_JUDGE)


def _github_settings(environ: Mapping[str, str]) -> Settings:
    """The GitHub settings for --open-pr, checked before anything runs."""
    try:
        from gate.github import pull_request
    except ModuleNotFoundError as e:
        raise GateError("--open-pr needs PyGithub: pip install 'agent-test-gate[github]'") from e
    found = from_env(environ)
    pull_request.require(found)
    return found


def _pull_request(request: Request, root: str, branch: str, head: str, body: str,
                  environ: Mapping[str, str]) -> str:
    """Push the branch to the remote, then open its pull request (the extra `github`)."""
    from gate.github import pull_request
    found = _github_settings(environ)
    git.run(root, "push", "--quiet", request.remote, f"{head}:refs/heads/{branch}")
    base = request.base.removeprefix("refs/heads/").removeprefix(f"{request.remote}/")
    title = request.message.splitlines()[0] if request.message.strip() else branch
    return pull_request.open_pull_request(found, branch, base, title, body)


@dataclasses.dataclass(frozen=True)
class _Count:
    """Where the attempt is counted, and under which cap."""

    root: str
    key: str
    cap: int
    quick: bool

    def record(self, verdict: Verdict | None, why: Fault, head: str) -> None:
        """The attempt counted against the cap; a quick check is not one."""
        if not self.quick:
            attempts.record(self.root, self.key, verdict, why, head, self.cap)


def check_request(request: Request, environ: Mapping[str, str]) -> None:
    """Bad input is exit 2 before anything is committed or counted."""
    if request.max_attempts is not None and request.max_attempts < 1:
        raise GateError("--max-attempts must be at least 1")
    if request.quick and request.open_pr:
        raise GateError("--open-pr with --quick: a quick check is not the full gate, and only "
                        "the gate's pass opens a pull request; drop one of them")
    if request.open_pr:
        _github_settings(environ)


def cap_of(request: Request, root: str, base: str, done: attempts.Attempts) -> int:
    """The cap this attempt is under: the base's (or the harness's), lowered if asked."""
    return caps.allowed(request.max_attempts, caps.ceiling(root, base, request.fixed_cap), done)


def submit(request: Request, progress: runner.Progress | None = None,
           environ: Mapping[str, str] = os.environ) -> Answer:
    """One attempt: commit, count, judge, answer. GateError (exit 2) for bad input."""
    check_request(request, environ)
    root = workspace.resolve_repo(request.repo)
    branch = branch_name(root, request.branch)
    base = git.resolve_commit(root, request.base)  # unknown: bad input, not an attempt
    here = git.text(root, "rev-parse", "HEAD").strip() if snapshot.has_head(root) else None
    key = attempts.change_key(root, base, here)
    done = attempts.read(root, key)
    cap = cap_of(request, root, base, done)
    if done.used >= cap:
        return _capped(request, branch, cap, done)
    count = _Count(root, key, cap, request.quick)
    head = commit_to_branch(root, branch, request.message)
    used = done.used + (0 if request.quick else 1)
    state = attempts.directory(root)
    os.makedirs(state, exist_ok=True)  # protected only if it exists when the run starts
    options = runner.Options(base=request.base, head=head, repo=root, protect=(state,))
    try:
        report = (quick_runner.run if request.quick else runner.run)(options, progress)
    except GateError as e:
        count.record(None, "infrastructure", head)
        return _cannot_judge(str(e), branch, head, used, cap)
    machine = fault.infrastructure(report)
    if machine is None and _tip(root, branch) != head:
        machine = f"the branch {branch} moved while it was judged: the result is stale"
    if machine is not None:
        count.record(None, "infrastructure", head)
        return _cannot_judge(machine, branch, head, used, cap, report)
    count.record(report.verdict, "change", head)
    header = _quick_header if request.quick else _header
    text = feedback.for_report(report, header(report.verdict, branch, head, used, cap))
    answer = Answer(report.verdict, used, cap - used, "change", branch, head, text,
                    exit_code(report.verdict, quick=request.quick))
    if report.verdict != "pass" or not request.open_pr:
        return answer
    try:
        url = _pull_request(request, root, branch, head, text, environ)
    except GateError as e:
        return dataclasses.replace(answer, fault="infrastructure", exit_code=EXIT_CANNOT_JUDGE,
                                   feedback=feedback.bound(
                                       f"{text}\nThe change passed, but the pull request was "
                                       f"not opened: {e}\n{NOT_YOUR_FAULT}"))
    return dataclasses.replace(answer, pull_request=url,
                               feedback=feedback.bound(f"{text}\nPull request opened: {url}"))
