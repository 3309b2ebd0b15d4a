"""suite: the whole suite passes N runs out of N; a test that fails in some runs is flaky."""
from __future__ import annotations

import os
from collections import defaultdict

from gate.context import Workspace
from gate.junit import CaseResult
from gate.models import CheckResult, Finding, Status
from gate.testrun import TestRun, run_tests

ID = "suite"
TITLE = "The whole suite passes every run"
EXPLANATION = """\
Runs the test command N times (default 3) on the fresh checkout. A test that fails in every
run is a failure; a test that fails in some runs and passes in others is flaky, and is named
with its file and line. For pytest, per-test outcomes come from a JUnit report requested
through PYTEST_ADDOPTS, and the exit status must agree with that report: a run that exits 0
with failures in its report, or having run no test, does not pass.

Resolve: fix the failing test or the code under it; make a flaky test deterministic
(fixed seeds, no shared state, no real time or network)."""


def _findings(runs: list[TestRun]) -> list[Finding]:
    failures: dict[str, list[CaseResult]] = defaultdict(list)
    seen: dict[str, int] = defaultdict(int)
    for run in runs:
        for test in run.outcomes or []:
            seen[test.name] += 1
            if test.outcome == "failed":
                failures[test.name].append(test)
    findings = []
    n = len(runs)
    for name, failed in sorted(failures.items()):
        first = failed[0]
        k = len(failed)
        if k < seen[name]:
            message = f"flaky: {name} failed in {k} of {seen[name]} runs and passed in the others"
        else:
            message = f"{name} failed in {k} of {n} runs"
        if first.message:
            message += f": {first.message.splitlines()[0][:200]}"
        findings.append(Finding(first.file or ".", first.line or 1, "test-failed",
                                message, severity="error"))
    return findings


def _counts(run: TestRun) -> str:
    if run.outcomes is None:
        return ""
    passed = sum(t.outcome == "passed" for t in run.outcomes)
    skipped = sum(t.outcome == "skipped" for t in run.outcomes)
    ran = len(run.outcomes) - skipped
    text = f", {passed}/{ran} tests"
    return text + (f", {skipped} skipped" if skipped else "")


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
    summary = f"{passed} of {runs} runs passed{_counts(worst)}"
    bad = [f"run {i}: {r.problem()}" for i, r in enumerate(results, 1) if not r.passed]
    if bad:
        summary += " (" + "; ".join(bad) + ")"
    detail = "" if worst.passed else worst.completed.tail()
    duration = sum(r.completed.duration_s for r in results)
    return CheckResult(ID, TITLE, _status(results), True, summary, detail=detail,
                       findings=tuple(_findings(results)), duration_s=duration)
