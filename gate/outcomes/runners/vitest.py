"""Vitest: "Tests  1 failed | 2 passed | 1 skipped (4)"; failures as " FAIL  file > a > b"."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, first_lines

NAME = "vitest"
_SUMMARY = re.compile(r"^\s*Tests\s+(.*)\((\d+)\)\s*$", re.M)
_FAIL = re.compile(r"^\s*FAIL\s+(\S+?) > (.+?)\s*$")


def _cases(output: str) -> list[CaseResult]:
    lines = output.splitlines()
    cases = []
    for i, line in enumerate(lines):
        match = _FAIL.match(line)
        if match:
            body = []
            for text in lines[i + 1:]:
                if not text.strip() or text.lstrip().startswith(("\u276f", "FAIL")):
                    break
                body.append(text)
            cases.append(CaseResult(match.group(2), match.group(1), None, "failed",
                                    first_lines(body, 2)))
    return cases


def parse(output: str, report: str) -> Counts | None:
    found = _SUMMARY.findall(output)
    if not found:
        return None
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", found[-1][0])}
    skipped = counts.get("skipped", 0) + counts.get("todo", 0)
    return Counts(NAME, counts.get("passed", 0), counts.get("failed", 0), skipped,
                  tuple(_cases(output)), complete=False)
