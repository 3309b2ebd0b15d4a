"""Jest: "Tests:       1 failed, 1 skipped, 2 passed, 4 total"; each failure as a bullet
with its describe path."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, first_lines

NAME = "jest"
_SUMMARY = re.compile(r"^Tests:\s+(.*\d+ total)\s*$", re.M)
_FILE = re.compile(r"^\s*FAIL\s+(\S+)\s*$")
_BULLET = re.compile(r"^\s*\u25cf (.+?)\s*$")
_END = re.compile(r"^(?:Test Suites:|Tests:|\s*\u25cf|\s*at )")


def _cases(output: str) -> list[CaseResult]:
    lines = output.splitlines()
    cases: list[CaseResult] = []
    file = None
    for i, line in enumerate(lines):
        header = _FILE.match(line)
        if header:
            file = header.group(1)
            continue
        bullet = _BULLET.match(line)
        if not bullet or bullet.group(1).startswith("Test suite failed to run"):
            continue
        body = []
        for text in lines[i + 1:]:
            if _END.match(text) or text.lstrip().startswith(">"):
                break
            body.append(text)
        name = bullet.group(1).replace(" \u203a ", " > ")
        cases.append(CaseResult(name, file, None, "failed", first_lines(body)))
    return cases


def parse(output: str, report: str) -> Counts | None:
    """The counts of every Jest run in the output, summed (`jest unit && jest e2e`)."""
    found = _SUMMARY.findall(output)
    if not found:
        return None
    counts: dict[str, int] = {}
    for summary in found:
        for n, word in re.findall(r"(\d+) (\w+)", summary):
            counts[word] = counts.get(word, 0) + int(n)
    skipped = counts.get("skipped", 0) + counts.get("todo", 0)
    return Counts(NAME, counts.get("passed", 0), counts.get("failed", 0), skipped,
                  tuple(_cases(output)), complete=False)
