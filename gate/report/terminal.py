"""What a hook prints: a line per finding, `path:line: check-id: message`, then one line that
says how to resolve or allow them. The same text whether pre-commit or a plain git hook runs
it; colour only on a terminal, and never with NO_COLOR (https://no-color.org)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from gate.checks.allow import ALLOWABLE
from gate.models import CheckResult, Report

BOLD, RED, GREEN, YELLOW, RESET = "\033[1m", "\033[31m", "\033[32m", "\033[33m", "\033[0m"
_NOT_PASSED = ("failed", "timeout", "error")


def wants_colour(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Colour for a terminal, unless NO_COLOR is set to anything but the empty string."""
    return not environ.get("NO_COLOR") and stream.isatty()


def paint(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{RESET}" if colour and code else text


def _check_lines(check: CheckResult, colour: bool) -> list[str]:
    findings = [f for f in check.findings if f.severity != "notice"]
    tone = RED if check.required and check.status in _NOT_PASSED else YELLOW
    check_id = paint(check.id, tone, colour)
    if findings:
        return [f"{paint(f'{f.path}:{f.line}', BOLD, colour)}: {check_id}: {f.message}"
                for f in findings]
    if check.status not in _NOT_PASSED:
        return []
    lines = [f"{check_id}: {check.summary}"]
    lines += [f"    {row}" for row in check.detail.splitlines()]
    return lines


def advice(verdict: str, check_ids: list[str]) -> str:
    """The last line: what to do about the checks `check_ids` that raised something."""
    allowable = [c for c in check_ids if c in ALLOWABLE]
    named = check_ids[0] if len(check_ids) == 1 else "CHECK-ID"
    text = f"gate: {verdict}: resolve the lines above"
    if allowable:
        example = allowable[0] if len(allowable) == 1 else "CHECK-ID"
        text += f", or allow one with `# gate: allow {example} -- <reason>` on its line"
    return text + f" (`gate explain {named}` says how)"


def render(report: Report, colour: bool = False, advise: bool = True) -> str:
    """Nothing for a pass; else the lines of every check that raised something, and advice
    (unless `advise` is False: the caller says what to do instead, in one voice)."""
    if report.verdict == "pass":
        return ""
    lines: list[str] = []
    raised: list[str] = []
    for check in report.checks:
        rows = _check_lines(check, colour)
        if rows:
            raised.append(check.id)
            lines += rows
    tone = RED if report.verdict == "fail" else YELLOW
    if advise:
        lines.append(paint(advice(report.verdict, raised), tone, colour))
    return "\n".join(lines) + "\n" if lines else ""
