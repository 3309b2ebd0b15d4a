"""What a hook prints: a line per finding, `path:line: check-id: message`, then one line that
says how to resolve them: at a commit (`waivable`, the author at the keyboard) or allow them, in
the file's own comment syntax; elsewhere, that a person must approve the rest. The same text
whether pre-commit or a plain git hook runs it; colour only on a terminal, and never with NO_COLOR (https://no-color.org)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from gate.checks import allow
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


def advice(verdict: str, check_ids: list[str], waivable_in: str | None = None) -> str:
    """The last line: what to do about the checks `check_ids` that raised something. Only
    where the author's own allow comments count (`waivable_in`: the path of the first finding
    one could allow) does it spell one, in that file's comment syntax."""
    allowable = [c for c in check_ids if c in allow.ALLOWABLE]
    named = check_ids[0] if len(check_ids) == 1 else "CHECK-ID"
    text = f"gate: {verdict}: resolve the lines above"
    if allowable and waivable_in is not None:
        example = allowable[0] if len(allowable) == 1 else "CHECK-ID"
        text += f", or allow one with `{allow.spelled(waivable_in, example)}` on its line"
    elif verdict == "needs-review":
        text += "; a person must approve the rest"
    return text + f" (`gate explain {named}` says how)"


def render(report: Report, colour: bool = False, advise: bool = True,
           waivable: bool = False) -> str:
    """Nothing for a pass; else the lines of every check that raised something, and advice
    (unless `advise` is False: the caller says what to do instead, in one voice; `waivable`:
    the author's own allow comments count, as at `gate hook pre-commit`)."""
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
    where = next((f.path for c in report.checks if c.id in allow.ALLOWABLE
                  for f in c.findings if f.severity != "notice"), None) if waivable else None
    if advise:
        lines.append(paint(advice(report.verdict, raised, where), tone, colour))
    return "\n".join(lines) + "\n" if lines else ""
