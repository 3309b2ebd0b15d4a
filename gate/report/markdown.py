"""Markdown for a person on GitHub: the job summary, the check run's summary and the comment.

The test counts (against the base's when known), a table of the checks (status, summary,
time), a table of the tests to look at (failing, flaky, no longer run), the other findings,
each linked to its line when the repository is known, then per check that did not pass a
folded `<details>` block with its output, and a link to the full logs. Everything is bounded:
GitHub refuses a check run summary or a comment over 65,535 characters.
"""
from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence
from urllib.parse import quote

from gate.models import CheckResult, Finding, Report
from gate.report import tests_table, words
from gate.report.tests_table import BaseDelta

API_TEXT_LIMIT = 65535
VERDICT_ICONS = {"pass": "✅", "needs-review": "🟡", "fail": "❌"}
MAX_FINDINGS = 200
MAX_DETAIL = 6000  # characters of one check's output in its <details> block


@dataclasses.dataclass(frozen=True)
class Links:
    """Where a file of the judged commit is shown: `{server}/{repository}/blob/{sha}/{path}`."""
    server_url: str
    repository: str
    sha: str
    base_sha: str | None = None  # for a line that is only at base (a removed test)

    def line(self, finding: Finding, at_base: bool = False) -> str:
        end = finding.end_line or finding.line
        anchor = f"#L{finding.line}" + (f"-L{end}" if end != finding.line else "")
        sha = self.base_sha if at_base and self.base_sha else self.sha
        return (f"{self.server_url.rstrip('/')}/{self.repository}/blob/{sha}/"
                f"{quote(finding.path)}{anchor}")


def cell(text: str) -> str:
    """Text that stays in one table cell, or one list item: on one line, `|` escaped, and no
    HTML (a test's message with `<!--` would hide the rest of the page)."""
    return html.escape(" ".join(text.split()), quote=False).replace("|", "\\|")


def headline(report: Report) -> str:
    return (f"{VERDICT_ICONS[report.verdict]} gate: **{report.verdict}** for "
            f"`{report.head[:12]}` (base `{report.base[:12]}`, {report.duration_s:.1f}s)")


def checks_table(checks: Sequence[CheckResult]) -> str:
    rows = ["| | check | status | summary | time |", "|---|---|---|---|---|"]
    for c in checks:
        seconds = f"{c.duration_s:.1f}s" if c.duration_s >= 0.05 else ""
        rows.append(f"| {words.icon(c)} | `{c.id}` | {words.outcome(c)} | {cell(c.summary)} | "
                    f"{seconds} |")
    return "\n".join(rows)


def _location(finding: Finding, links: Links | None, at_base: bool = False) -> str:
    where = f"{finding.path}:{finding.line}"
    return f"[`{where}`]({links.line(finding, at_base)})" if links else f"`{where}`"


def findings_list(report: Report, links: Links | None, limit: int = MAX_FINDINGS,
                  shown: Sequence[Finding] = ()) -> str:
    """The findings not already `shown` (in the tests table)."""
    items = [(c.id, f) for c in report.checks for f in c.findings if f not in shown]
    lines = [
        f"- {_location(f, links, check_id == 'tests-removed')} **{check_id}** ({f.severity}): "
        f"{cell(f.message)} `{cell(f.rule)}`"
        for check_id, f in items[:limit]
    ]
    if len(items) > limit:
        lines.append(f"- … and {len(items) - limit} more (all are in the JSON report)")
    return "\n".join(lines)


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in `text`, so that none can end it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def details(check: CheckResult, limit: int = MAX_DETAIL) -> str:
    """A folded block with the check's output (its `detail`, cut to `limit` characters)."""
    text = check.detail.rstrip()
    if len(text) > limit:
        text = "… (the first lines are cut: the full output is in the logs)\n" + text[-limit:]
    fence = _fence(text)
    title = html.escape(f"{check.id}: {check.summary}", quote=False)
    return (f"<details><summary>{words.icon(check)} {title}</summary>\n\n"
            f"{fence}text\n{text}\n{fence}\n\n</details>")


def _tests_part(report: Report, links: Links | None) -> tuple[str, list[Finding]]:
    rows = tests_table.rows(report)
    if not rows:
        return "", []
    text = tests_table.table(rows, lambda f, at_base: links.line(f, at_base) if links else None,
                             cell)
    return f"**Tests to look at ({len(rows)})**\n\n{text}", [r.finding for r in rows]


def body(report: Report, *, links: Links | None = None, notes: Sequence[str] = (),
         changes: Sequence[str] = (), delta: BaseDelta | None = None,
         logs_url: str | None = None) -> str:
    """The verdict, the notes (stale result, fallbacks, hidden annotations), what changed since
    the last verdict, the test counts (`delta`: against the base's, when known), the checks
    table, the tests to look at, the other findings, each failing check's output and where
    the full logs are."""
    parts = [f"### {headline(report)}",
             f"Isolation of the judged code: **{report.isolation.level}** "
             f"({cell(report.isolation.detail)})"]
    if notes:
        parts.append("\n".join(f"> {note}" for note in notes))
    if changes:
        parts.append("**Since the last verdict:**\n" + "\n".join(f"- {c}" for c in changes))
    counts = tests_table.counts(report)
    if counts is not None:
        parts.append(tests_table.counts_line(counts, delta))
    parts.append(checks_table(report.checks))
    tests_part, shown = _tests_part(report, links)
    if tests_part:
        parts.append(tests_part)
    rest = sum(1 for c in report.checks for f in c.findings if f not in shown)
    if rest:
        title = "Other findings" if shown else "Findings"
        parts.append(f"**{title} ({rest})**\n\n" + findings_list(report, links, shown=shown))
    parts += [details(c) for c in report.checks
              if c.detail.strip() and words.outcome(c) not in ("passed", "skipped")]
    if logs_url:
        parts.append(f"The full output of every command: [logs]({logs_url}).")
    if report.verdict != "pass":
        parts.append("Run `gate explain CHECK-ID` for what a check means and how to resolve it.")
    return "\n\n".join(parts) + "\n"


def truncate(text: str, limit: int = API_TEXT_LIMIT) -> str:
    """`text`, cut to at most `limit` characters with a note where it was cut."""
    if len(text) <= limit:
        return text
    note = "\n\n… (cut to fit GitHub's limit; the full report is in the job's artifacts)\n"
    return text[: limit - len(note)] + note
