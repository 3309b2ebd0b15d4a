"""install: the project installs from scratch with its own install command."""
from __future__ import annotations

import os
import re

from gate.checks.common import command_outcome
from gate.errors import GateError
from gate.execution import process
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult
from gate.outcomes import detail

ID = "install"
TITLE = "Installs from scratch in a fresh environment"
EXPLANATION = """\
Runs the project's install command (from --install, the config, or detected from the
lockfile and manifests) on a fresh checkout of the head, in a new virtual environment for
Python projects. A detected Python install says which installer it used (uv where found,
else pip) and what decided the versions (uv.lock, poetry.lock, pinned requirements, or
none: the newest the project allows). A dependency that the agent installed by hand, and
that the project does not declare, is missing here: the install or the suite then fails.

Resolve: declare the dependency in the project's manifest (pyproject.toml, requirements,
package.json), or fix the install command in [tool.gate] on the base branch."""


# What installers print when the disk is full: the machine's fault, not the change's.
_DISK_FULL = re.compile(r"No space left on device|\bENOSPC\b|Disk quota exceeded|\bEDQUOT\b")


def run(ws: Workspace, command: str | None, why: str = "") -> CheckResult:
    """The install's result (`why`: which installer and what decides the versions, said in
    the summary of a detected install); GateError (exit 2: the gate cannot judge) when it
    failed because the disk filled up."""
    if command is None:
        return CheckResult(ID, TITLE, "passed", True, "nothing to install")
    done = process.run_shell(command, cwd=ws.checkout, env=ws.env, timeout=ws.timeout,
                             log=ws.log("install"), wrap=ws.wrap)
    full = None if done.ok else _DISK_FULL.search(done.output)
    if full:
        temp = os.path.dirname(os.path.dirname(ws.scratch))  # above the run's own root
        own = (f", or raise tmp-size-mb in [tool.gate] (the install's own TMPDIR under "
               f"isolation: {ws.boundary.tmp_bytes >> 20} MiB)" if ws.boundary.bwrap else "")
        raise GateError(f"the disk filled up during the install (`{full.group(0)}` in its "
                        f"output): free space where the gate's temporary directory is ({temp}), "
                        f"or point TMPDIR at a larger disk{own}, and run again")
    status, summary = command_outcome(done, ws.timeout)
    summary += f" ({why})" if why else ""
    text = "" if done.ok else detail.excerpt([], done.output)
    return CheckResult(ID, TITLE, status, True, summary, detail=text,
                       duration_s=done.duration_s)
