"""From check results to a verdict, as DESIGN.md defines it."""
from __future__ import annotations

import pytest

from gate.engine.verdict import decide
from gate.models import CheckResult, Finding, Status


def result(status: Status, required: bool, *findings: Finding) -> CheckResult:
    return CheckResult("x", "X", status, required, "", findings=findings)


WARNING = Finding("a.py", 1, "r", "m", "warning")
NOTICE = Finding("a.py", 1, "r", "m", "notice")


@pytest.mark.parametrize(("checks", "strict", "verdict"), [
    ([result("passed", True), result("passed", False)], False, "pass"),
    ([result("failed", True)], False, "fail"),
    ([result("timeout", True)], False, "fail"),
    ([result("error", True)], False, "fail"),
    ([result("skipped", True)], False, "pass"),
    ([result("failed", False, WARNING)], False, "needs-review"),
    ([result("failed", False, WARNING)], True, "fail"),
    ([result("passed", False, NOTICE)], False, "pass"),
    ([result("failed", False, WARNING), result("failed", True)], False, "fail"),
])
def test_decide(checks: list[CheckResult], strict: bool, verdict: str) -> None:
    assert decide(checks, strict=strict) == verdict
