"""How a quick check's report is told apart from the gate's: the lines that close its text,
and the refusal of the front doors that take only the full gate's report."""
from __future__ import annotations

from gate.checks import registry
from gate.errors import GateError
from gate.models import Report

NOT_THE_GATE = "quick check: not the full gate"


def closing(report: Report) -> list[str]:
    """What it ran and why, and that `gate run` is the gate (for the text report)."""
    quick = report.quick or {}
    done = [str(r) for r in quick.get("ran", ())]
    ran = ", ".join(r for r in done if r not in registry.DIFF) or "nothing"
    if any(r in registry.DIFF for r in done):
        ran += " and the diff checks"
    return [f"{NOT_THE_GATE}. It ran: {ran}. Why: {quick.get('why', '')}.",
            f"quick verdict: {report.verdict} ({report.duration_s:.1f}s). Only `gate run` "
            "(without --quick) gives the gate's verdict."]


def refuse(report: Report, path: str, command: str) -> None:
    """GateError when `report` is a quick check's: `command` takes the full gate's only."""
    if report.quick is not None:
        raise GateError(f"{path} is the report of `gate run --quick`, a quick check and not "
                        f"the full gate: {command} takes only the gate's report. Write one "
                        "with `gate run --report FILE` (without --quick)")
