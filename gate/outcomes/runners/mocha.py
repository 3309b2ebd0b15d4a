"""Mocha's spec reporter: "3 passing (5ms)", "1 pending", "1 failing", then numbered failures."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, first_lines

NAME = "mocha"
_PASSING = re.compile(r"^\s+(\d+) passing \(\d+m?s\)\s*$", re.M)
_PENDING = re.compile(r"^\s+(\d+) pending\s*$", re.M)
_FAILING = re.compile(r"^\s+(\d+) failing\s*$", re.M)
_NUMBERED = re.compile(r"^\s+(\d+)\) (.+?)\s*$")
_STACK_FILE = re.compile(r"\((?!node:)([^():]+):(\d+):\d+\)")


def _cases(lines: list[str], count: int) -> list[CaseResult]:
    starts: dict[int, tuple[int, str]] = {}
    for index, line in enumerate(lines):
        match = _NUMBERED.match(line)
        if match and int(match.group(1)) <= count:
            starts.setdefault(int(match.group(1)), (index, match.group(2)))
    cases = []
    for start, first in (starts[n] for n in sorted(starts)):
        title = [first]
        i = start + 1
        while i < len(lines) and lines[i].strip() and not lines[i].rstrip().endswith(":"):
            title.append(lines[i].strip())
            i += 1
        if i < len(lines) and lines[i].strip():
            title.append(lines[i].strip()[:-1])
            i += 1
        body = lines[i:i + 12]
        stack = next((m for text in body if (m := _STACK_FILE.search(text))), None)
        cases.append(CaseResult(" > ".join(title), stack.group(1) if stack else None, None,
                                "failed", first_lines(body, 1)))
    return cases


def parse(output: str, report: str) -> Counts | None:
    """The counts of every Mocha run in the output, summed (`mocha unit && mocha e2e`): each
    run's summary block starts at its "N passing" line."""
    starts = [m for m in _PASSING.finditer(output)]
    if not starts:
        return None
    passed = failed = skipped = 0
    cases: list[CaseResult] = []
    for i, start in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(output)
        block = output[start.start(1):end]  # from the count: `\s+` may take blank lines
        head = "\n".join(block.splitlines()[:3])  # "N pending" and "N failing" follow it
        pending, failing = _PENDING.search(head), _FAILING.search(head)
        run_failed = int(failing.group(1)) if failing else 0
        passed += int(start.group(1))
        skipped += int(pending.group(1)) if pending else 0
        failed += run_failed
        cases += _cases(block.splitlines(), run_failed)
    return Counts(NAME, passed, failed, skipped, tuple(cases), complete=False)
