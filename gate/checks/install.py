"""install: the project installs from scratch with its own install command."""
from __future__ import annotations

from gate import process
from gate.context import Workspace
from gate.models import CheckResult, Status

ID = "install"
TITLE = "Installs from scratch in a fresh environment"
EXPLANATION = """\
Runs the project's install command (from --install, the config, or detected from the
lockfile and manifests) on a fresh checkout of the head, in a new virtual environment for
Python projects. A dependency that the agent installed by hand, and that the project does not
declare, is missing here: the install or the suite then fails.

Resolve: declare the dependency in the project's manifest (pyproject.toml, requirements,
package.json), or fix the install command in [tool.gate] on the base branch."""


def run(ws: Workspace, command: str | None) -> CheckResult:
    if command is None:
        return CheckResult(ID, TITLE, "passed", True, "nothing to install")
    done = process.run_shell(command, cwd=ws.checkout, env=ws.env, timeout=ws.timeout)
    if done.ok:
        return CheckResult(ID, TITLE, "passed", True, f"`{command}` succeeded",
                           duration_s=done.duration_s)
    status: Status
    if done.timed_out:
        status, summary = "timeout", f"`{command}` timed out after {ws.timeout:g}s"
    elif done.not_found:
        status, summary = "error", f"`{command}`: command not found"
    else:
        status, summary = "failed", f"`{command}` failed with exit {done.returncode}"
    return CheckResult(ID, TITLE, status, True, summary, detail=done.tail(),
                       duration_s=done.duration_s)
