"""uvu: its closing "Total: 5 / Passed: 3 / Skipped: 1" (a failure is a test run that did
not pass), and each failure's `FAIL [suite] "name"` block with the stack frame of its test
file. A passing test is a dot: only the failures are named (complete=False). The output is
read with its colour codes stripped (`reading.read`): uvu colours it even in a pipe."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts

NAME = "uvu"
_SUMMARY = re.compile(r"^  Total:\s+(\d+)\s*\n  Passed:\s+(\d+)\s*\n  Skipped:\s+(\d+)\s*\n"
                      r"  Duration:", re.M)
_FAIL = re.compile(r'^\s+FAIL\s+(?:(.+?)\s+)?"(.+)"\s*$')
_FRAME = re.compile(r"^\s+at .*?\(?((?:file://)?/[^()]+?):(\d+):\d+\)?\s*$")


def _frame(body: list[str]) -> tuple[str | None, int | None]:
    """The first stack frame outside node_modules and node's own: the test's line."""
    for line in body:
        frame = _FRAME.match(line)
        if frame and "/node_modules/" not in frame.group(1):
            return frame.group(1).removeprefix("file://"), int(frame.group(2))
    return None, None


def _cases(lines: list[str]) -> list[CaseResult]:
    cases = []
    for i, line in enumerate(lines):
        fail = _FAIL.match(line)
        if not fail:
            continue
        body = []
        for text in lines[i + 1:]:
            if _FAIL.match(text) or text.startswith("  Total:"):
                break
            body.append(text)
        suite, name = fail.group(1), fail.group(2)
        file, line_no = _frame(body)
        message = next((t.strip() for t in body if t.strip()), "")
        cases.append(CaseResult(f"{suite} > {name}" if suite else name, file, line_no,
                                "failed", message))
    return cases


def parse(output: str, report: str) -> Counts | None:
    """The counts of every uvu run in the output, summed (`uvu unit && uvu e2e`)."""
    found = _SUMMARY.findall(output)
    if not found:
        return None
    total, passed, skipped = (sum(int(run[i]) for run in found) for i in range(3))
    return Counts(NAME, passed, total - passed, skipped, tuple(_cases(output.splitlines())),
                  complete=False)
