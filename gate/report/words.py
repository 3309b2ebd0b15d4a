"""The word and the icon for a check's outcome, the same in the terminal, the job summary, the
comment and the check run.

A check that is not required (a diff check, base-tests, an optional user check) and raised
something does not fail the change: a person reviews it. It reads "review" 🟡, not "FAIL" ❌,
so that the words agree with a needs-review verdict.
"""
from __future__ import annotations

from gate.models import CheckResult

NOT_RUN_BY_SCAN = "not run by `gate scan`"  # the summary of each runtime check in a scan

_WORDS = {"passed": "ok", "failed": "FAIL", "timeout": "TIMEOUT", "error": "ERROR",
          "skipped": "skip", "review": "review"}
_ICONS = {"passed": "✅", "failed": "❌", "timeout": "⏱️", "error": "⚠️", "skipped": "⏭️",
          "review": "🟡"}


def outcome(check: CheckResult) -> str:
    """The check's status, or `review` for one that is not required and raised something."""
    if check.status == "failed" and not check.required:
        return "review"
    return check.status


def word(check: CheckResult) -> str:
    """For the terminal: ok, FAIL, TIMEOUT, ERROR, skip or review."""
    return _WORDS[outcome(check)]


def icon(check: CheckResult) -> str:
    return _ICONS[outcome(check)]

