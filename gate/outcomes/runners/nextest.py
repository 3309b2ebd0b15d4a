"""cargo-nextest: "Summary [ 0.1s] 14 tests run: 13 passed, 1 failed, 2 skipped" and a
"FAIL [ 0.003s] binary-id test::name" line per failing test."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts

NAME = "nextest"
_SUMMARY = re.compile(r"^\s*Summary \[\s*[\d.]+s\] (\d+) tests? run: (.*)$", re.M)
_FAILED = re.compile(
    r"^\s*(?:FAIL|LEAK-FAIL|TIMEOUT|SIG\w+|ABORT)\s+\[\s*[\d.]+s\]\s+(?:\(\d+/\d+\)\s+)?"
    r"(\S+)\s+(\S+)\s*$", re.M)


def parse(output: str, report: str) -> Counts | None:
    found = _SUMMARY.findall(output)
    if not found:
        return None
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped)",
                                                   found[-1][1])}
    names = dict.fromkeys(f"{binary} {test}" for binary, test in _FAILED.findall(output))
    cases = tuple(CaseResult(name, None, None, "failed") for name in names)
    return Counts(NAME, counts.get("passed", 0), counts.get("failed", 0),
                  counts.get("skipped", 0), cases, complete=False)
