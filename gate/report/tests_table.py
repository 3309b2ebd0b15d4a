"""The tests a reviewer must look at, as one markdown table: the failing ones, the flaky and
the order-dependent ones, the base's tests that fail on the head, and the tests that no
longer run (removed, not collected, or newly skipped); each linked to its line. Findings
allowed with a reason (notices) are not rows. And the test counts, against the base's when
they are known.

They are read from the findings (the JSON contract), so the same table comes out of `gate run`
and of `gate publish --report FILE`. A removed test's line is the base's: its link is to the
base commit, where the line still is.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from gate.checks import suite
from gate.models import Finding, Report, TestCounts

_KINDS = (  # (check id, rule or None for any, kind shown), in the order of the table
    ("suite", "test-failed", "failing"),
    ("base-tests", "base-test-failed", "base test fails"),
    ("tests-removed", "test-removed", "removed"),
    ("tests-removed", "not-collected", "no longer run"),
    ("skip-markers", None, "skipped"),
)
FLAKY = "flaky"
ORDER_DEPENDENT = "order-dependent"
MAX_ROWS = 100
MINUS = "\N{MINUS SIGN}"  # as GitHub shows a diff's counts


@dataclasses.dataclass(frozen=True)
class Row:
    kind: str
    finding: Finding
    at_base: bool  # the finding's line is the base's (the test is gone from the head)


@dataclasses.dataclass(frozen=True)
class BaseDelta:
    """Tests that run at head and not at base (`added`), and the other way round (`removed`):
    given once the base's outcomes are known."""
    added: int
    removed: int

    def render(self) -> str:
        return f"+{self.added} {MINUS}{self.removed}"


def is_flaky(finding: Finding) -> bool:
    return finding.rule == "test-failed" and finding.message.startswith(suite.FLAKY)


def is_order_dependent(finding: Finding) -> bool:
    return finding.rule == "test-failed" and finding.message.startswith(suite.ORDER_DEPENDENT)


def _kind(finding: Finding, kind: str) -> str:
    if is_flaky(finding):
        return FLAKY
    return ORDER_DEPENDENT if is_order_dependent(finding) else kind


def rows(report: Report) -> list[Row]:
    found: list[Row] = []
    for check_id, rule, kind in _KINDS:
        for check in report.checks:
            if check.id != check_id:
                continue
            found += [Row(_kind(f, kind), f, check_id == "tests-removed")
                      for f in check.findings
                      if rule in (None, f.rule) and f.severity != "notice"]
    return sorted(found, key=lambda r: r.kind == FLAKY)  # flaky after the failing


def counts(report: Report) -> TestCounts | None:
    return next((c.tests for c in report.checks if c.id == "suite" and c.tests), None)


def counts_line(tests: TestCounts, delta: BaseDelta | None = None) -> str:
    """`Tests: 41 passed, 1 failed, 1 flaky, 2 skipped (+3 -0 against the base)`."""
    parts = [f"{tests.passed} passed", f"{tests.failed} failed"]
    if tests.flaky:
        parts.append(f"{tests.flaky} flaky")
    if tests.skipped:
        parts.append(f"{tests.skipped} skipped")
    against = f" ({delta.render()} against the base)" if delta else ""
    return f"**Tests:** {', '.join(parts)}{against}"


def table(items: list[Row], link: Callable[[Finding, bool], str | None], cell: Callable[[str], str],
          limit: int = MAX_ROWS) -> str:
    lines = ["| | test | where |", "|---|---|---|"]
    for row in items[:limit]:
        f = row.finding
        where = f"{f.path}:{f.line}"
        url = link(f, row.at_base)
        shown = f"[`{where}`]({url})" if url else f"`{where}`"
        lines.append(f"| {row.kind} | {cell(f.message)} | {shown} |")
    if len(items) > limit:
        lines.append(f"| | … and {len(items) - limit} more (all are in the JSON report) | |")
    return "\n".join(lines)
