"""suite: the whole suite passes N runs out of N; a test that fails in some runs is flaky."""
from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from gate.engine.context import Workspace
from gate.models import CheckResult, Finding, Status, TestCounts
from gate.outcomes import detail
from gate.outcomes.record import CaseResult
from gate.outcomes.testrun import TestRun, run_tests

ID = "suite"
TITLE = "The whole suite passes every run"
EXPLANATION = """\
Runs the test command N times (default 3) on the fresh checkout. A test that fails in every
run is a failure; a test that fails in some runs and passes in others is flaky, and is named
with its file, line and pattern ("passed 1 of 3"). Retries never make a failing test green:
every run must pass. Per-test outcomes come from the runner, asked through the environment
(the command is never edited): pytest writes a JUnit report requested through PYTEST_ADDOPTS,
go test is made verbose through GOFLAGS, nextest prints every test (NEXTEST_STATUS_LEVEL),
Jest, Vitest and Mocha are followed by the gate's Node preload (NODE_OPTIONS) and unittest by
its sitecustomize (PYTHONPATH), whose reports name tests only when they agree with the
runner's printed summary; node:test and cargo test are read from their output. The exit
status must agree with the runner's counts: a run that exits 0 with failures, or having run
no test, does not pass.

Resolve: fix the failing test or the code under it; make a flaky test deterministic
(fixed seeds, no shared state, no real time or network)."""


FLAKY = "flaky:"  # how a flaky test's finding starts
REPORT = "suite-{}.xml"  # run N's JUnit report, in the scratch directory
FIRST_REPORT = REPORT.format(1)


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
            message = (f"{FLAKY} {name} failed in {k} of {seen[name]} runs "
                       f"(passed {seen[name] - k} of {seen[name]})")
        else:
            message = f"{name} failed in {k} of {n} runs"
        if first.message:
            message += f": {first.message.splitlines()[0][:200]}"
        findings.append(Finding(first.file or ".", first.line or 1, "test-failed",
                                message, severity="error"))
    return findings


def _counts(runs: list[TestRun], findings: list[Finding]) -> TestCounts | None:
    """The tests over the N runs; a test that failed is counted once, failed or flaky."""
    counted = [r.counts for r in runs if r.counts is not None]
    if not counted:
        return None
    flaky = sum(f.message.startswith(FLAKY) for f in findings)
    failed = len(findings) - flaky
    most = max(c.ran for c in counted)
    return TestCounts(passed=max(most - failed - flaky, 0), failed=failed, flaky=flaky,
                      skipped=max(c.skipped for c in counted))


def _status(runs: list[TestRun]) -> Status:
    if all(r.passed for r in runs):
        return "passed"
    if any(r.completed.not_found for r in runs):
        return "error"
    if all(r.completed.timed_out for r in runs if not r.passed):
        return "timeout"
    return "failed"


def _one_after_another(ws: Workspace, command: str, runs: int,
                       tell: Callable[[str], None]) -> list[TestRun]:
    results: list[TestRun] = []
    for i in range(1, runs + 1):
        tell(f"run {i} of {runs}")
        result = run_tests(ws, command, os.path.join(ws.scratch, REPORT.format(i)),
                           log=ws.log(f"suite-run-{i}"))
        results.append(result)
        if result.completed.not_found or result.completed.timed_out:
            break  # the command will not appear by itself, a hang would hang again

    return results


def _side_by_side(spaces: Sequence[Workspace], command: str,
                  tell: Callable[[str], None]) -> list[TestRun]:
    """One run in each checkout at the same time (they share one installed environment)."""
    tell(f"{len(spaces)} runs side by side")
    with ThreadPoolExecutor(max_workers=len(spaces)) as pool:
        return list(pool.map(
            lambda i: run_tests(spaces[i], command,
                                os.path.join(spaces[i].scratch, REPORT.format(i + 1)),
                                log=spaces[i].log(f"suite-side-by-side-{i + 1}")),
            range(len(spaces))))


def nothing_to_run(shard: object, how: str) -> CheckResult:
    """A shard that no test fell to (more shards than test files, say)."""
    return CheckResult(ID, TITLE, "passed", True,
                       f"no test falls to shard {shard} ({how})")


def _silent(text: str) -> None:
    pass


def run(ws: Workspace, command: str, runs: int, side_by_side: Sequence[Workspace] = (),
        tell: Callable[[str], None] = _silent) -> CheckResult:
    return run_with_outcomes(ws, command, runs, side_by_side, tell)[0]


def run_with_outcomes(ws: Workspace, command: str, runs: int,
                      side_by_side: Sequence[Workspace] = (),
                      tell: Callable[[str], None] = _silent) -> tuple[CheckResult,
                                                                       list[TestRun]]:
    """N runs one after another, or side by side in the `side_by_side` checkouts, and the
    runs that decided. Runs side by side that do not all pass are run again one after
    another, which decide: when those pass, the tests interfere with each other (a fixed
    port, a file written in a shared place) and the summary says so."""
    start = time.monotonic()
    note = ""
    if side_by_side:
        results = _side_by_side(side_by_side, command, tell)
        if not all(r.passed for r in results):
            together = sum(r.passed for r in results)
            results = _one_after_another(ws, command, runs, tell)
            note = f"; side by side {together} of {len(side_by_side)} passed"
            if all(r.passed for r in results):
                note += (": the runs interfere with each other (fixed ports, shared files?);"
                         " set parallel = false")
    else:
        results = _one_after_another(ws, command, runs, tell)
    return judge(results, runs, note, side_by_side=bool(side_by_side),
                 duration_s=time.monotonic() - start), results  # wall time, also side by side


def judge(results: Sequence[TestRun], runs: int, note: str = "", *, side_by_side: bool = False,
          duration_s: float = 0.0) -> CheckResult:
    """The check's result from its runs (also the union of shards' runs, in `gate merge`)."""
    passed = sum(r.passed for r in results)
    worst = next((r for r in results if not r.passed), results[-1])
    summary = f"{passed} of {runs} runs passed"
    if side_by_side and not note:
        summary += " side by side"
    if worst.counts is not None:
        summary += f", {worst.counts.describe()}"
    bad = [f"run {i}: {r.problem()}" for i, r in enumerate(results, 1) if not r.passed]
    if len(results) < runs and results[-1].completed.timed_out:
        bad.append("no more runs made: a run that hangs would hang again")
    if bad:
        summary += " (" + "; ".join(bad) + ")"
    summary += note
    text = "" if worst.passed else detail.excerpt(worst.failed_tests, worst.completed.output)
    findings = _findings(list(results))
    return CheckResult(ID, TITLE, _status(list(results)), True, summary, detail=text,
                       findings=tuple(findings), duration_s=duration_s,
                       tests=_counts(list(results), findings))
