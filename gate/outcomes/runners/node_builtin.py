"""node:test: the TAP reporter's "# tests 4 / # pass 2 / # fail 1" (the spec reporter
prints the same counts after an info sign), and each test's `ok` / `not ok` line under its
`# Subtest:` path (`# SKIP` and `# TODO` are skipped). When every test the counts name has
its line, the outcomes are complete: the base outcomes can name a test that no longer runs."""
from __future__ import annotations

import re

from gate.outcomes.record import CaseResult, Counts, Outcome

NAME = "node:test"
_COUNT = re.compile(r"^[#\u2139] (tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$",
                    re.M)
_SUBTEST = re.compile(r"^( *)# Subtest: (.+?)\s*$")
_NOT_OK = re.compile(r"^( *)not ok \d+ - (.+?)(?:\s+#\s.*)?$")
_OK = re.compile(r"^( *)ok \d+ - (.+?)(?:\s+#\s*(SKIP|TODO)\b.*)?$", re.IGNORECASE)
_LOCATION = re.compile(r"^\s+location: '(.+):(\d+):\d+'\s*$")
_ERROR = re.compile(r"^\s+error: (.*)$")


def _yaml(lines: list[str], start: int) -> list[str]:
    """The YAML block after a TAP line: from "---" to "..."."""
    if start >= len(lines) or lines[start].strip() != "---":
        return []
    block = []
    for line in lines[start + 1:]:
        if line.strip() == "...":
            break
        block.append(line)
    return block


def _failure(path: list[str], block: list[str]) -> CaseResult | None:
    if any(line.strip() == "type: 'suite'" for line in block):
        return None  # a describe() that failed because a test in it failed
    file = line_no = None
    message = ""
    for i, line in enumerate(block):
        location = _LOCATION.match(line)
        if location:
            file, line_no = location.group(1), int(location.group(2))
        error = _ERROR.match(line)
        if error and not message:
            value = error.group(1).strip()
            if value in ("|-", "|", ">-") and i + 1 < len(block):
                value = block[i + 1].strip()
            message = value.strip("'\"")
    return CaseResult(" > ".join(path), file, line_no, "failed", message)


def _cases(output: str) -> list[CaseResult]:
    lines = output.splitlines()
    stack: list[str] = []
    cases = []
    for i, line in enumerate(lines):
        subtest = _SUBTEST.match(line)
        if subtest:
            depth = len(subtest.group(1)) // 4
            stack = [*stack[:depth], subtest.group(2)]
            continue
        failed = _NOT_OK.match(line)
        if failed:
            depth = len(failed.group(1)) // 4
            case = _failure([*stack[:depth], failed.group(2)], _yaml(lines, i + 1))
            if case is not None:
                cases.append(case)
            continue
        passed = _OK.match(line)
        if passed and not _is_suite(_yaml(lines, i + 1)):
            depth = len(passed.group(1)) // 4
            outcome: Outcome = "skipped" if passed.group(3) else "passed"
            cases.append(CaseResult(" > ".join([*stack[:depth], passed.group(2)]), None, None,
                                    outcome))
    return cases


def _is_suite(block: list[str]) -> bool:
    return any(line.strip() == "type: 'suite'" for line in block)


def parse(output: str, report: str) -> Counts | None:
    counts = {name: int(n) for name, n in _COUNT.findall(output)}
    if "tests" not in counts or "pass" not in counts:
        return None
    failed = counts.get("fail", 0) + counts.get("cancelled", 0)
    skipped = counts.get("skipped", 0) + counts.get("todo", 0)
    cases = tuple(_cases(output))
    complete = len({c.name for c in cases}) == len(cases) == counts["tests"]
    return Counts(NAME, counts["pass"], failed, skipped, cases, complete=complete)
