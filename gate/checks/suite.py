"""suite: the whole suite passes N runs out of N; a test that fails in some runs is flaky."""
from __future__ import annotations

import os
from collections import defaultdict

from gate import detail
from gate.context import Workspace
from gate.models import CheckResult, Finding, Status
from gate.results.record import CaseResult
from gate.testrun import TestRun, run_tests

ID = "suite"
TITLE = "The whole suite passes every run"
EXPLANATION = """\
Runs the test command N times (default 3) on the fresh checkout. A test that fails in every
run is a failure; a test that fails in some runs and passes in others is flaky, and is named
with its file, line and pattern ("passed 1 of 3"). Retries never make a failing test green:
every run must pass. Per-test outcomes come from the runner: pytest writes a JUnit report
requested through PYTEST_ADDOPTS, go test is made verbose through GOFLAGS, and unittest,
Jest, Vitest, Mocha, node:test, cargo test and nextest are read from their summaries. The
exit status must agree with the runner's counts: a run that exits 0 with failures, or having
run no test, does not pass.

Resolve: fix the failing test or the code under it; make a flaky test deterministic
(fixed seeds, no shared state, no real time or network)."""


def _findings(runs: list[TestRun]) -> list[Finding]:
    failures: dict[str, list[CaseResult]] = defaultdict(list)
    counted = [r.counts for r in runs if r.counts is not None]
    for counts in counted:
        for test in counts.failures():
            failures[test.name].append(test)
    seen: dict[str, int] = defaultdict(int)
    for counts in counted:
        names = {c.name for c in counts.cases}
        for name in failures:
            # A runner that names only its failures passed a test it did not name.
            if name in names or not counts.complete:
                seen[name] += 1
    findings = []
    n = len(runs)
    for name, failed in sorted(failures.items()):
        first = next((t for t in failed if t.line), failed[0])
        k = len(failed)
        if k < seen[name]:
            message = (f"flaky: {name} failed in {k} of {seen[name]} runs "
                       f"(passed {seen[name] - k} of {seen[name]})")
        else:
            message = f"{name} failed in {k} of {n} runs"
        if first.message:
            message += f": {first.message.splitlines()[0][:200]}"
        findings.append(Finding(first.file or ".", first.line or 1, "test-failed",
                                message, severity="error"))
    return findings


def _status(runs: list[TestRun]) -> Status:
    if all(r.passed for r in runs):
        return "passed"
    if any(r.completed.not_found for r in runs):
        return "error"
    if all(r.completed.timed_out for r in runs if not r.passed):
        return "timeout"
    return "failed"


def run(ws: Workspace, command: str, runs: int) -> CheckResult:
    results: list[TestRun] = []
    for i in range(1, runs + 1):
        result = run_tests(ws, command, os.path.join(ws.scratch, f"suite-{i}.xml"))
        results.append(result)
        if result.completed.not_found:
            break  # the command will not appear by itself: no point in more runs
    passed = sum(r.passed for r in results)
    worst = next((r for r in results if not r.passed), results[-1])
    summary = f"{passed} of {runs} runs passed"
    if worst.counts is not None:
        summary += f", {worst.counts.describe()}"
    bad = [f"run {i}: {r.problem()}" for i, r in enumerate(results, 1) if not r.passed]
    if bad:
        summary += " (" + "; ".join(bad) + ")"
    text = "" if worst.passed else detail.excerpt(worst.failed_tests, worst.completed.output)
    duration = sum(r.completed.duration_s for r in results)
    return CheckResult(ID, TITLE, _status(results), True, summary, detail=text,
                       findings=tuple(_findings(results)), duration_s=duration)
