"""cargo-nextest: "Summary [ 0.1s] 14 tests run: 13 passed, 1 failed, 2 skipped", a "FAIL [
0.003s] binary-id test::name" line per failing test and, with NEXTEST_STATUS_LEVEL=all (set
by the gate through the environment), a PASS, FAIL or SKIP line per test before the summary.
When those lines have exactly the summary's counts, every test is named."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, Outcome

NAME = "nextest"
_SUMMARY = re.compile(r"^\s*Summary \[\s*[\d.]+s\] (\d+) tests? run: (.*)$", re.M)
_FAILED = re.compile(
    r"^\s*(?:FAIL|LEAK-FAIL|TIMEOUT|SIG\w+|ABORT)\s+\[\s*[\d.]+s\]\s+(?:\(\d+/\d+\)\s+)?"
    r"(\S+)\s+(\S+)\s*$", re.M)
_STARTING = re.compile(r"^\s*Starting \d+ tests? across ", re.M)
# a test's status line: "PASS [   0.004s] (1/2) crate tests::x", "SKIP [         ] (───) ..."
_STATUS = re.compile(
    r"^\s*(?:TRY \d+ )?(PASS|LEAK|FAIL|LEAK-FAIL|TIMEOUT|SIG\w+|ABORT|SKIP)\s+\[[^\]]*\]\s+"
    r"(?:\([^)]*\)\s+)?(\S+)\s+(\S+)\s*$")
_OUTCOMES: dict[str, Outcome] = {"PASS": "passed", "LEAK": "passed", "SKIP": "skipped"}


def env() -> dict[str, str]:
    """Every test's status line, not only the failures' (nextest's own setting)."""
    return {"NEXTEST_STATUS_LEVEL": "all"}


def _every_test(output: str, summary: re.Match[str]) -> list[CaseResult]:
    """The status lines of the last run, before its summary; a test retried keeps its last."""
    starts = [m.end() for m in _STARTING.finditer(output, 0, summary.start())]
    found: dict[str, CaseResult] = {}
    for line in output[starts[-1] if starts else 0:summary.start()].splitlines():
        status = _STATUS.match(line)
        if status:
            name = f"{status.group(2)} {status.group(3)}"
            found[name] = CaseResult(name, None, None, _OUTCOMES.get(status.group(1), "failed"))
    return list(found.values())


def parse(output: str, report: str) -> Counts | None:
    found = list(_SUMMARY.finditer(output))
    if not found:
        return None
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped)",
                                                   found[-1].group(2))}
    passed, failed, skipped = (counts.get(w, 0) for w in ("passed", "failed", "skipped"))
    every = _every_test(output, found[-1])
    tally = tuple(sum(c.outcome == o for c in every) for o in ("passed", "failed", "skipped"))
    if every and tally == (passed, failed, skipped):
        return Counts(NAME, passed, failed, skipped, tuple(every))
    names = dict.fromkeys(f"{binary} {test}" for binary, test in _FAILED.findall(output))
    cases = tuple(CaseResult(name, None, None, "failed") for name in names)
    return Counts(NAME, passed, failed, skipped, cases, complete=False)
