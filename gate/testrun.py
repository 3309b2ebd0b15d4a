"""One run of the test command, with per-test outcomes where the runner can report them."""
from __future__ import annotations

import dataclasses
import os
import re
import shlex
from collections.abc import Sequence

from gate import junit, process
from gate.context import Workspace
from gate.junit import CaseResult

_PYTEST = re.compile(r"^\s*(?:python3?\s+-m\s+)?pytest(?:\s|$)")
_SHELL_OPERATORS = re.compile(r"[;&|<>`$()]")
# pytest's exit codes other than 0 and 1, named in a run's summary.
_PYTEST_EXITS = {2: "interrupted", 3: "internal error", 4: "usage error",
                 5: "no tests collected"}


@dataclasses.dataclass(frozen=True)
class TestRun:
    completed: process.Completed
    outcomes: list[CaseResult] | None  # None: the runner wrote no per-test report

    @property
    def failed_tests(self) -> list[CaseResult]:
        return [t for t in self.outcomes or [] if t.outcome == "failed"]

    @property
    def passed(self) -> bool:
        """Exit status and per-test report must agree: a run passes only if both say so."""
        if not self.completed.ok:
            return False
        if self.outcomes is None:
            return True
        return not self.failed_tests and any(t.outcome == "passed" for t in self.outcomes)

    def problem(self) -> str:
        """Why the run did not pass, in a few words."""
        c = self.completed
        if c.timed_out:
            return "timed out"
        if c.not_found:
            return "command not found"
        if c.returncode != 0:
            if self.outcomes is not None and c.returncode in _PYTEST_EXITS:
                return f"exit {c.returncode}: {_PYTEST_EXITS[c.returncode]}"
            return f"exit {c.returncode}"
        if self.failed_tests:
            return f"exit 0 but {len(self.failed_tests)} test(s) failed in the report"
        return "exit 0 but no test ran"


def is_plain_pytest(command: str) -> bool:
    """A single pytest invocation, to which test file arguments can be appended."""
    return bool(_PYTEST.match(command)) and not _SHELL_OPERATORS.search(command)


def run_tests(
    ws: Workspace,
    command: str,
    report: str,
    *,
    extra_addopts: Sequence[str] = (),
) -> TestRun:
    """Run `command` in the checkout; pytest is asked for a JUnit report through
    PYTEST_ADDOPTS, so the user's command is not edited."""
    addopts = ["-p", "no:cacheprovider", f"--junitxml={report}", "-o", "junit_family=xunit1",
               *extra_addopts]
    env = dict(ws.env)
    env["PYTEST_ADDOPTS"] = " ".join(shlex.quote(a) for a in addopts)
    if os.path.exists(report):
        os.unlink(report)
    completed = process.run_shell(command, cwd=ws.checkout, env=env, timeout=ws.timeout)
    return TestRun(completed, junit.parse(report))
