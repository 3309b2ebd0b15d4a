"""pytest: a JUnit XML report requested through PYTEST_ADDOPTS, so the command is not edited."""
from __future__ import annotations

import shlex
from collections.abc import Sequence

from gate.outcomes import junit
from gate.outcomes.record import Counts

NAME = "pytest"


def env(report: str, extra_addopts: Sequence[str] = ()) -> dict[str, str]:
    addopts = ["-p", "no:cacheprovider", f"--junitxml={report}", "-o", "junit_family=xunit1",
               *extra_addopts]
    return {"PYTEST_ADDOPTS": " ".join(shlex.quote(a) for a in addopts)}


def parse(output: str, report: str) -> Counts | None:
    cases = junit.parse(report)
    if cases is None:
        return None
    return Counts(
        NAME,
        passed=sum(c.outcome == "passed" for c in cases),
        failed=sum(c.outcome == "failed" for c in cases),
        skipped=sum(c.outcome == "skipped" for c in cases),
        cases=tuple(cases),
    )
