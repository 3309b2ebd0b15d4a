"""User checks: `[[tool.gate.checks]]`, any shell command (build, typecheck, lint), run one
after another in the head checkout after the install; reported after the built-in checks."""
from __future__ import annotations

from collections.abc import Collection, Sequence

from gate.checks.common import command_outcome
from gate.engine.config import UserCheck
from gate.errors import GateError
from gate.execution import process
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult
from gate.outcomes import detail

EXPLANATION = """\
A check of the project's own, configured on the base branch as [[tool.gate.checks]] with a
`name`, the shell command to `run`, whether it is `required` (default true) and a `timeout`.
A required check that fails, times out or cannot run fails the gate; an optional one is
reported and never changes the verdict."""


def title(check: UserCheck) -> str:
    return f"`{check.run}`" + ("" if check.required else " (optional)")


def validate(checks: Sequence[UserCheck], builtin: Collection[str], source: str) -> None:
    """A user check may not take a built-in check's name."""
    for check in checks:
        if check.name in builtin:
            raise GateError(f"{source}: the user check name {check.name!r} is a built-in "
                            "check's id; rename it in [[tool.gate.checks]] on the base branch")


def skipped(check: UserCheck, why: str) -> CheckResult:
    return CheckResult(check.name, title(check), "skipped", check.required, why)


def run(ws: Workspace, check: UserCheck) -> CheckResult:
    timeout = check.timeout or ws.timeout
    done = process.run_shell(check.run, cwd=ws.checkout, env=ws.env, timeout=timeout,
                             log=ws.log(f"check-{check.name}"), wrap=ws.wrap)
    status, summary = command_outcome(done, timeout)
    text = "" if done.ok else detail.excerpt([], done.output)
    return CheckResult(check.name, title(check), status, check.required, summary, detail=text,
                       duration_s=done.duration_s)
