"""Markdown for a person on GitHub: the job summary, the check run's summary and the comment.

A table of the checks (status, summary, time), then the findings, each linked to its line when
the repository is known. Everything is bounded: GitHub refuses a check run summary or a comment
over 65,535 characters.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from urllib.parse import quote

from gate.models import CheckResult, Finding, Report

API_TEXT_LIMIT = 65535
ICONS = {"passed": "✅", "failed": "❌", "timeout": "⏱️", "error": "⚠️", "skipped": "⏭️"}
VERDICT_ICONS = {"pass": "✅", "needs-review": "🟡", "fail": "❌"}
MAX_FINDINGS = 200


@dataclasses.dataclass(frozen=True)
class Links:
    """Where a file of the judged commit is shown: `{server}/{repository}/blob/{sha}/{path}`."""
    server_url: str
    repository: str
    sha: str

    def line(self, finding: Finding) -> str:
        end = finding.end_line or finding.line
        anchor = f"#L{finding.line}" + (f"-L{end}" if end != finding.line else "")
        return (f"{self.server_url.rstrip('/')}/{self.repository}/blob/{self.sha}/"
                f"{quote(finding.path)}{anchor}")


def cell(text: str) -> str:
    """Text that stays in one table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def headline(report: Report) -> str:
    return (f"{VERDICT_ICONS[report.verdict]} gate: **{report.verdict}** for "
            f"`{report.head[:12]}` (base `{report.base[:12]}`, {report.duration_s:.1f}s)")


def checks_table(checks: Sequence[CheckResult]) -> str:
    rows = ["| | check | status | summary | time |", "|---|---|---|---|---|"]
    for c in checks:
        seconds = f"{c.duration_s:.1f}s" if c.duration_s >= 0.05 else ""
        rows.append(f"| {ICONS[c.status]} | `{c.id}` | {c.status} | {cell(c.summary)} | "
                    f"{seconds} |")
    return "\n".join(rows)


def _location(finding: Finding, links: Links | None) -> str:
    where = f"{finding.path}:{finding.line}"
    return f"[`{where}`]({links.line(finding)})" if links else f"`{where}`"


def findings_list(report: Report, links: Links | None, limit: int = MAX_FINDINGS) -> str:
    items = [(c.id, f) for c in report.checks for f in c.findings]
    lines = [
        f"- {_location(f, links)} **{check_id}** ({f.severity}): {cell(f.message)} "
        f"`{cell(f.rule)}`"
        for check_id, f in items[:limit]
    ]
    if len(items) > limit:
        lines.append(f"- … and {len(items) - limit} more (all are in the JSON report)")
    return "\n".join(lines)


def body(report: Report, *, links: Links | None = None, notes: Sequence[str] = (),
         changes: Sequence[str] = ()) -> str:
    """The verdict, the notes (stale result, fallbacks, hidden annotations), what changed since
    the last verdict, the checks table and the findings."""
    parts = [f"### {headline(report)}",
             f"Isolation of the judged code: **{report.isolation.level}** "
             f"({cell(report.isolation.detail)})"]
    if notes:
        parts.append("\n".join(f"> {note}" for note in notes))
    if changes:
        parts.append("**Since the last verdict:**\n" + "\n".join(f"- {c}" for c in changes))
    parts.append(checks_table(report.checks))
    n = sum(len(c.findings) for c in report.checks)
    if n:
        parts.append(f"**Findings ({n})**\n\n" + findings_list(report, links))
    if report.verdict != "pass":
        parts.append("Run `gate explain CHECK-ID` for what a check means and how to resolve it.")
    return "\n\n".join(parts) + "\n"


def truncate(text: str, limit: int = API_TEXT_LIMIT) -> str:
    """`text`, cut to at most `limit` characters with a note where it was cut."""
    if len(text) <= limit:
        return text
    note = "\n\n… (cut to fit GitHub's limit; the full report is in the job's artifacts)\n"
    return text[: limit - len(note)] + note
