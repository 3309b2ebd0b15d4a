"""`gate mcp`: the gate as MCP tools over stdio, on the official SDK (the extra `mcp`):
`submit` (what `gate submit` does), `scan` (the diff checks) and `explain` (a check's text).
Each tool takes typed arguments and returns a typed record (a pydantic model, which the SDK
brings); stdout is the protocol's, so
nothing else is printed there."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from gate import __version__
from gate.agent import feedback, snapshot
from gate.agent import submit as submitting
from gate.checks import registry
from gate.engine import runner
from gate.errors import GateError
from gate.execution import workspace


class SubmitResult(BaseModel):
    """The JSON of `gate submit --format json`, with its exit code."""

    verdict: Literal["pass", "needs-review", "fail"] | None
    attempt: int
    attempts_left: int
    fault: Literal["change", "infrastructure"]
    branch: str
    head: str
    feedback: str
    exit_code: int
    pull_request: str | None = None


class Finding(BaseModel):
    check: str
    path: str
    line: int
    rule: str
    message: str


class ScanResult(BaseModel):
    verdict: Literal["pass", "needs-review", "fail"]
    head: str
    findings: list[Finding]
    feedback: str


class Explanation(BaseModel):
    id: str
    title: str
    explanation: str


def submit(base: str, repo: str = ".", branch: str | None = None,
           message: str = "gate submit", max_attempts: int | None = None,
           open_pr: bool = False, quick: bool = False) -> SubmitResult:
    """Commit the working tree of `repo` to a branch (default gate/submit/<current branch>;
    your branch, index and files stay as they are), run the whole gate on it against `base`,
    and answer: pass, or what failed at file:line and what would make it pass. fault
    "infrastructure" means the machine failed: change no code for it. exit_code 5: the
    attempts are used up, a person must look. max_attempts may lower the cap of attempts
    for this change (the project's, by default 3), never raise it. open_pr: on pass, push
    the branch and open its pull request (the server's GITHUB_TOKEN and GITHUB_REPOSITORY).
    quick: for the inner loop, a quick check that is NOT the gate (install, lint and type
    checks, the tests once for a bug fix, else the build): exit_code 4 on its pass, not
    counted as an attempt."""
    return _submit(submitting.Request(base=base, repo=repo, branch=branch, message=message,
                                      max_attempts=max_attempts, open_pr=open_pr,
                                      quick=quick))


def _submit(request: submitting.Request) -> SubmitResult:
    branch = request.branch
    try:
        answer = submitting.submit(request)
    except GateError as e:
        return SubmitResult(verdict=None, attempt=0, attempts_left=0, fault="infrastructure",
                            branch=branch or "", head="", exit_code=2,
                            feedback=f"gate submit could not start: {e}\nThis is not the "
                                     "change's fault: fix the arguments or the machine as "
                                     "the message says; change no code for it.")
    return SubmitResult(verdict=answer.verdict, attempt=answer.attempt,
                        attempts_left=answer.attempts_left, fault=answer.fault,
                        branch=answer.branch, head=answer.head, feedback=answer.feedback,
                        exit_code=answer.exit_code, pull_request=answer.pull_request)


def scan(base: str, head: str | None = None, repo: str = ".") -> ScanResult:
    """The diff checks (no install, no test run) on `head` against `base`: removed tests,
    new skip markers, lint and type escapes, weakened test config, harness tricks,
    changes to the agents' instructions and settings, lockfiles,
    the diff policy. Each finding is at a file and line. No `head`: the working tree,
    uncommitted files included (nothing is staged or committed)."""
    try:
        root = workspace.resolve_repo(repo)
        judged = head or snapshot.working_tree(root)
        report = runner.scan(runner.Options(base=base, head=judged, repo=root))
    except GateError as e:  # bad input: the message says what to do
        raise ToolError(str(e)) from e
    found = [Finding(check=c.id, path=f.path, line=f.line, rule=f.rule, message=f.message)
             for c in report.checks for f in c.findings]
    header = f"gate scan: {report.verdict} for {head or 'the working tree'} against {base}."
    return ScanResult(verdict=report.verdict, head=report.head, findings=found,
                      feedback=feedback.for_report(report, header))


def explain(check_id: str) -> Explanation:
    """What a check (install, suite, base-tests, tests-removed, skip-markers, escapes, ...)
    means and how to resolve what it found."""
    if check_id not in registry.ORDER:
        raise ToolError(f"unknown check {check_id!r}: one of {', '.join(registry.ORDER)}")
    return Explanation(id=check_id, title=registry.title(check_id),
                       explanation=registry.explanation(check_id))


def _fixed(cap: int) -> Callable[..., SubmitResult]:
    """The `submit` tool under a cap fixed for the server's life (`gate mcp --max-attempts`):
    the same signature and text, the cap out of the agent's reach."""
    @functools.wraps(submit)
    def fixed(base: str, repo: str = ".", branch: str | None = None,
              message: str = "gate submit", max_attempts: int | None = None,
              open_pr: bool = False, quick: bool = False) -> SubmitResult:
        return _submit(submitting.Request(base=base, repo=repo, branch=branch,
                                          message=message, max_attempts=max_attempts,
                                          open_pr=open_pr, quick=quick, fixed_cap=cap))
    return fixed


def server(fixed_cap: int | None = None) -> MCPServer:
    made: MCPServer = MCPServer("gate", version=__version__, instructions=(
        "A test gate for agent-written code. Call `submit` when the work is done: it judges "
        "the change on a clean checkout and says what to fix; `scan` is the fast diff checks; "
        "`explain` says what a check means."))
    for tool in (submit if fixed_cap is None else _fixed(fixed_cap), scan, explain):
        made.add_tool(tool, structured_output=True)
    return made


def serve(fixed_cap: int | None = None) -> None:
    server(fixed_cap).run("stdio")
