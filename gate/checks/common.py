"""What the check modules share: turning findings into a CheckResult."""
from __future__ import annotations

from collections.abc import Sequence

from gate.execution import hidden_paths
from gate.execution.process import Completed
from gate.models import CheckResult, Finding, Status


def from_findings(
    check_id: str,
    title: str,
    findings: Sequence[Finding],
    *,
    clean: str,
    found: str,
    duration_s: float = 0.0,
    notices_only: str = ", notices only",
) -> CheckResult:
    """A diff check's result: `clean` when nothing was found, else `found` formatted with n;
    with notices only, it has passed (a notice is never a verdict), said by `notices_only`."""
    if not findings:
        return CheckResult(check_id, title, "passed", False, clean, duration_s=duration_s)
    ordered = tuple(sorted(findings, key=lambda f: (f.path, f.line, f.rule)))
    if all(f.severity == "notice" for f in findings):
        return CheckResult(check_id, title, "passed", False,
                           found.format(n=len(findings)) + notices_only, findings=ordered,
                           duration_s=duration_s)
    return CheckResult(check_id, title, "failed", False, found.format(n=len(findings)),
                       findings=ordered, duration_s=duration_s)


def command_outcome(done: Completed, timeout: float) -> tuple[Status, str]:
    """A shell command's status and summary, as the install and the user checks report it."""
    command = done.command
    if done.ok:
        return "passed", f"`{command}` succeeded"
    if done.timed_out:
        return "timeout", f"`{command}` timed out after {timeout:g}s"
    if done.not_found:
        if done.returncode == 1:  # python -m X, X not installed
            said = done.output.strip().rsplit(": ", 1)[-1]
            return "error", f"`{command}`: {said.lower()}: the install does not bring it"
        return "error", f"`{command}`: command not found" + hidden_paths.note(done.output)
    return "failed", f"`{command}` failed with exit {done.returncode}"


def listed(names: Sequence[str], limit: int) -> str:
    """`a, b, c and 2 more`: the first `limit` names, and how many are left out."""
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
