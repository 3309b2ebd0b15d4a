"""Plain text for a terminal: a line per check, a line per finding, the verdict last."""
from __future__ import annotations

import sys
from typing import TextIO

from gate.engine.progress import Progress
from gate.models import CheckResult, Finding, Report

_MARK = {"passed": "ok", "failed": "FAIL", "timeout": "TIMEOUT", "error": "ERROR",
         "skipped": "skip"}


def check_line(check: CheckResult) -> str:
    seconds = f" ({check.duration_s:.1f}s)" if check.duration_s >= 0.05 else ""
    return f"{_MARK[check.status]:>7}  {check.id}: {check.summary}{seconds}"


def finding_line(check_id: str, finding: Finding) -> str:
    """`path:line: check-id: message [rule]`: the format editors and terminals link."""
    return f"{finding.path}:{finding.line}: {check_id}: {finding.message} [{finding.rule}]"


def render(report: Report) -> str:
    lines = [f"gate: base {report.base[:12]}, head {report.head[:12]}",
             f"isolation: {report.isolation.level} ({report.isolation.detail})"]
    lines += [check_line(c) for c in report.checks]
    findings = [(c, f) for c in report.checks for f in c.findings]
    if findings:
        lines.append("")
        lines += [finding_line(c.id, f) for c, f in findings]
    details = [c for c in report.checks if c.detail and c.status != "passed"]
    for check in details:
        lines.append("")
        lines.append(f"--- {check.id} output (last lines) ---")
        lines.append(check.detail)
    lines.append("")
    lines.append(f"verdict: {report.verdict} ({report.duration_s:.1f}s)")
    if report.verdict != "pass":
        lines.append("Run `gate explain CHECK-ID` for what a check means and how to resolve it.")
    return "\n".join(lines) + "\n"


class TextProgress(Progress):
    """A line when each check starts and when it ends, for a person watching a long suite."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def started(self, check_id: str, title: str) -> None:
        print(f"   ....  {check_id}: {title}", file=self.stream, flush=True)

    def finished(self, result: CheckResult) -> None:
        print(check_line(result), file=self.stream, flush=True)
