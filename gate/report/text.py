"""Plain text for a terminal: a line per check, a line per finding, the verdict last. Colour on
a terminal, never with NO_COLOR (https://no-color.org)."""
from __future__ import annotations

from collections.abc import Collection

from gate.models import CheckResult, Finding, Report
from gate.quick import told
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


def render(report: Report, colour: bool = False, shown: Collection[str] = (),
           unjudged: bool = False) -> str:
    """`shown`: the check lines the progress already printed to the same place, left out so
    that each check is printed once (a line that changed since, as the suite's does when the
    baseline classifies its failures, is printed again). `unjudged`: the gate could not
    judge the change (`engine/judgeable.py`): no verdict is printed, the caller says why."""
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
    lines += closing(report, colour, unjudged)
    return "\n".join(lines) + "\n"


NEEDS_A_PERSON = ("What cannot be resolved in the code needs a person: one with write access, not "
                  "the change's author, approves this head on the pull request.")


def _is_scan(report: Report) -> bool:
    return bool(report.checks) and report.checks[0].summary == words.NOT_RUN_BY_SCAN


def closing(report: Report, colour: bool = False, unjudged: bool = False) -> list[str]:
    """The verdict and what to do next. A shard's own run gives no verdict (the merge does);
    a scan's pass says what it did not look at; a run that could not judge gives none
    either (one voice: never `verdict: fail` above `could not judge`)."""
    if report.shard is not None:
        index, total = report.shard.get("index"), report.shard.get("total")
        return [f"shard {index}/{total} done ({report.duration_s:.1f}s): `gate merge` of every "
                "shard's report gives the verdict"]
    if unjudged:
        return [f"verdict: none: the gate could not judge this change ({report.duration_s:.1f}s;"
                " exit 2, not the change's fail: why below)"]
    verdict = paint(report.verdict, _VERDICT_TONES[report.verdict], colour)
    lines = (told.closing(report) if report.quick is not None
             else [f"verdict: {verdict} ({report.duration_s:.1f}s)"])
    if report.verdict != "pass":
        lines.append("Run `gate explain CHECK-ID` for what a check means and how to resolve it.")
    if report.verdict == "needs-review":
        lines.append(NEEDS_A_PERSON)
    elif _is_scan(report):
        lines.append("Only the diff checks ran: `gate run` installs the change and runs its "
                     "tests and the base's, which is what catches an edited assertion.")
    return lines
