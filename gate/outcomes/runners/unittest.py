"""unittest: "Ran N tests", then "OK" or "FAILED (failures=1, errors=1, skipped=2)"."""
from __future__ import annotations

import re

from gate.outcomes.junit import NOT_COLLECTED
from gate.outcomes.record import CaseResult, Counts

NAME = "unittest"
_RAN = re.compile(r"^Ran (\d+) tests? in [\d.]+s$", re.M)
_VERDICT = re.compile(r"^(OK|FAILED)(?: \(([^)]*)\))?\s*$", re.M)
_FAILURE = re.compile(r"^(?:FAIL|ERROR): ([\w.]+) \(([\w.]+?)\)\s*$", re.M)
_RULE = "-" * 70
_NOT_IMPORTED = "unittest.loader._FailedTest."  # a module that failed to import


def _case(match: re.Match[str], output: str) -> CaseResult:
    method, dotted = match.group(1), match.group(2)
    parts = dotted.split(".")
    if parts[-1] == method:  # Python 3.11+: (module.Class.method)
        parts = parts[:-1]
    block = output[match.end():].lstrip("\n").removeprefix(_RULE).lstrip("\n")
    block = block.split("\n\n", 1)[0].strip()
    message = block.splitlines()[-1].strip() if block else ""
    if dotted.startswith(_NOT_IMPORTED):  # "test_x (unittest.loader._FailedTest.test_x)"
        return CaseResult(method, None, None, "failed", NOT_COLLECTED + message)
    module, cls = ".".join(parts[:-1]), parts[-1]
    return CaseResult(f"{module}.{cls}.{method}", None, None, "failed", message)


def parse(output: str, report: str) -> Counts | None:
    ran = list(_RAN.finditer(output))
    if not ran:
        return None
    verdict = _VERDICT.search(output, ran[-1].end())
    if verdict is None:
        return None
    # "failures=1, errors=1, skipped=2, expected failures=1, unexpected successes=1"
    extras = dict(re.findall(r"(\w[\w ]*)=(\d+)", verdict.group(2) or ""))
    failed = int(extras.get("failures", 0)) + int(extras.get("errors", 0))
    failed += int(extras.get("unexpected successes", 0))
    skipped = int(extras.get("skipped", 0)) + int(extras.get("expected failures", 0))
    total = int(ran[-1].group(1))
    cases = tuple(_case(m, output) for m in _FAILURE.finditer(output))
    return Counts(NAME, total - failed - skipped, failed, skipped, cases, complete=False)
