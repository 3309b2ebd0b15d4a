"""Which check a finding's rule belongs to, for `gate explain RULE`: every finding line ends
with its rule (`tests/x.py:3: tests-removed: ... [not-run-at-head]`), and the report's last
line says to run `gate explain`. A rule is a check's where the check's explanation names it,
where it is a row of the markers' or escapes' tables, or where it is one the run gives
(a test no longer run at the head, a test that failed)."""
from __future__ import annotations

from gate.checks import registry
from gate.lang import escape_patterns, markers
from gate.outcomes import compare

# The rules the run's outcomes give, and those whose check's explanation names them
# otherwise, with the check that reports each (tests/checks/test_rules.py finds every rule
# the code gives a finding and asks for its check).
_NAMED = {compare.NOT_RUN: "tests-removed", compare.SKIPPED: "skip-markers",
          "test-failed": "suite", "base-test-failed": "base-tests", "test-removed":
          "tests-removed", "framework-getattr": "skip-markers", "lockfile": "lockfiles",
          "agent-file": "agent-config", "forbidden-path": "diff-policy",
          "upgrade-not-admitted": "diff-policy", "upgrade-not-found": "diff-policy"}


def check_of(rule: str) -> str | None:
    """The check whose findings carry `rule`; None where none does."""
    if rule in _NAMED:
        return _NAMED[rule]
    if any(m.id == rule for m in markers.MARKERS):
        return "skip-markers"
    if any(p.rule == rule for p in escape_patterns.ROWS):
        return "escapes"
    return next((c for c in registry.ORDER if f"`{rule}`" in registry.explanation(c)), None)
