"""The answer a model reads: bounded, ordered for acting on it (what decided the verdict
first), and saying what would make the change pass."""
from __future__ import annotations

import re

from gate.checks import registry
from gate.models import CheckResult, Report

LIMIT = 4096  # bytes: a few KB, whatever the report holds
FINDINGS_PER_CHECK = 8
DETAIL_CHARS = 900
_BAD = ("failed", "timeout", "error")


def _resolve(check_id: str) -> str:
    """The check's own advice (its explanation's `Resolve` sentence onwards), one line."""
    if check_id not in registry.ORDER:
        return "make the command succeed, or change it in [tool.gate] on the base branch"
    text = registry.explanation(check_id)
    found = re.search(r"\b(?:To resolve|Resolve)\b", text)
    advice = text[found.start():] if found else text.split("\n\n")[-1]
    advice = re.sub(r"\s+", " ", advice.split("\n\n")[0]).strip()
    advice = re.sub(r"^To resolve", "Resolve", advice)
    return advice if len(advice) <= 400 else advice[:397] + "..."


def to_act_on(report: Report) -> list[CheckResult]:
    """The checks that did not pass: those that decided a fail first, then the rest, each
    group in the report's order."""
    deciding = [c for c in report.checks if c.required and c.status in _BAD]
    rest = [c for c in report.checks if c not in deciding
            and (c.status in _BAD or any(f.severity != "notice" for f in c.findings))]
    return deciding + rest


def _section(n: int, check: CheckResult) -> str:
    lines = [f"{n}. {check.id} ({check.status}{', required' if check.required else ''}): "
             f"{check.summary}"]
    if check.detail.strip():
        detail = check.detail.strip()
        if len(detail) > DETAIL_CHARS:
            detail = detail[:DETAIL_CHARS] + " [...]"
        lines += ["   " + line for line in detail.splitlines()]
    shown = [f for f in check.findings if f.severity != "notice"][:FINDINGS_PER_CHECK]
    lines += [f"   {f.path}:{f.line}: {f.message} [{f.rule}]" for f in shown]
    more = len(check.findings) - len(shown)
    if more > 0:
        lines.append(f"   ... and {more} more finding(s) of {check.id}")
    advice = _resolve(check.id)
    lines.append(f"   {advice}" if advice.startswith("Resolve") else f"   To pass: {advice}")
    return "\n".join(lines)


def bound(text: str, limit: int = LIMIT) -> str:
    """`text` cut to at most `limit` bytes of UTF-8, at a line, saying that it was cut."""
    data = text.encode()
    if len(data) <= limit:
        return text
    note = "\n[... cut to stay short: `gate run --format json` prints the whole report]"
    kept = data[:limit - len(note.encode())].decode("utf-8", "ignore")
    return kept[:kept.rfind("\n")] + note if "\n" in kept else kept + note


def sections(report: Report) -> list[str]:
    """One numbered section per check to act on."""
    return [_section(n, c) for n, c in enumerate(to_act_on(report), 1)]


def for_report(report: Report, header: str) -> str:
    """`header`, what would make it pass, then one section per check to act on (the end is
    what a cut drops)."""
    if report.verdict == "pass":
        return bound(f"{header}\nEvery check passed: nothing to change.")
    advice = ("What would make it pass: resolve each numbered item below in the code (not by "
              "weakening, skipping or deleting tests, nor by waiving a finding: the gate reports "
              "that), then submit again. A person must approve the rest: say why in the pull "
              "request.")
    return bound("\n".join([header, advice, *sections(report)]))
