"""Plain text for a terminal: a line per check, a line per finding, the verdict last. Colour on
a terminal, never with NO_COLOR (https://no-color.org)."""
from __future__ import annotations

from collections.abc import Collection

from gate.models import CheckResult, Finding, Report
from gate.report import words
from gate.report.terminal import BOLD, GREEN, RED, YELLOW, paint

_TONES = {"passed": GREEN, "failed": RED, "timeout": RED, "error": RED, "review": YELLOW,
          "skipped": ""}
_VERDICT_TONES = {"pass": GREEN, "needs-review": YELLOW, "fail": RED}


def check_line(check: CheckResult, colour: bool = False) -> str:
    seconds = f" ({check.duration_s:.1f}s)" if check.duration_s >= 0.05 else ""
    mark = paint(f"{words.word(check):>7}", _TONES[words.outcome(check)], colour)
    return f"{mark}  {check.id}: {check.summary}{seconds}"


def finding_line(check_id: str, finding: Finding, colour: bool = False) -> str:
    """`path:line: check-id: message [rule]`: the format editors and terminals link."""
    where = paint(f"{finding.path}:{finding.line}", BOLD, colour)
    return f"{where}: {check_id}: {finding.message} [{finding.rule}]"


def render(report: Report, colour: bool = False, shown: Collection[str] = ()) -> str:
    """`shown`: the check lines the progress already printed to the same place, left out so
    that each check is printed once (a line that changed since, as the suite's does when the
    baseline classifies its failures, is printed again)."""
    lines = [f"gate: base {report.base[:12]}, head {report.head[:12]}",
             f"isolation: {report.isolation.level} ({report.isolation.detail})"]
    lines += [check_line(c, colour) for c in report.checks if check_line(c) not in shown]
    findings = [(c, f) for c in report.checks for f in c.findings]
    if findings:
        lines.append("")
        lines += [finding_line(c.id, f, colour) for c, f in findings]
    details = [c for c in report.checks if c.detail and c.status != "passed"]
    for check in details:
        lines.append("")
        lines.append(f"--- {check.id} output (last lines) ---")
        lines.append(check.detail)
    lines.append("")
    verdict = paint(report.verdict, _VERDICT_TONES[report.verdict], colour)
    lines.append(f"verdict: {verdict} ({report.duration_s:.1f}s)")
    if report.verdict != "pass":
        lines.append("Run `gate explain CHECK-ID` for what a check means and how to resolve it.")
    return "\n".join(lines) + "\n"
