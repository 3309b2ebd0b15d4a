"""cargo test: "test name ... ok" per test and "test result: ..." per test binary."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, Outcome, first_lines

NAME = "cargo test"
_BINARY = re.compile(r"^\s+(?:Running (?:unittests )?(\S+) \(|Doc-tests (\S+))")
_TEST = re.compile(r"^test (\S+?)(?: - .*)? \.\.\. (ok|FAILED|ignored)")
_RESULT = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", re.M)
_OUTCOMES: dict[str, Outcome] = {"ok": "passed", "FAILED": "failed", "ignored": "skipped"}


def _message(output: str, name: str) -> str:
    marker = f"---- {name} stdout ----"
    start = output.find(marker)
    if start < 0:
        return ""
    block = output[start + len(marker):].lstrip("\n").split("\n\n", 1)[0]
    lines = block.split("stack backtrace:", 1)[0].splitlines()
    return first_lines(lines, 4)


def parse(output: str, report: str) -> Counts | None:
    results = _RESULT.findall(output)
    if not results:
        return None
    cases = []
    file = None
    for line in output.splitlines():
        binary = _BINARY.match(line)
        if binary:
            file = binary.group(1)  # None for doc-tests
            continue
        test = _TEST.match(line)
        if test:
            outcome = _OUTCOMES[test.group(2)]
            message = _message(output, test.group(1)) if outcome == "failed" else ""
            cases.append(CaseResult(test.group(1), file, None, outcome, message))
    passed, failed, ignored = (sum(int(r[i]) for r in results) for i in range(3))
    return Counts(NAME, passed, failed, ignored, tuple(cases))
