"""The core: judge a head against a base. Knows nothing about who called it."""
from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable

from gate.checks import allow, base_tests, pinned, registry, skip_markers, tests_removed, user
from gate.checks.harness import leftovers
from gate.engine import background, redact, runtime
from gate.engine.change import Change, Options, prepare
from gate.engine.context import DiffContext
from gate.engine.progress import OneAtATime, Progress, timed
from gate.engine.verdict import decide
from gate.execution import isolation
from gate.execution import logs as command_logs
from gate.models import NOTHING_RUN, CheckResult, Isolation, Report
from gate.outcomes import compare, outcome_cache
from gate.report import words
from gate.shards import partial, shares

__all__ = ["Options", "Progress", "diff_checks", "judged", "run", "scan"]


def _diff_check(change: Change, check_id: str, fn: Callable[[DiffContext], CheckResult],
                ) -> CheckResult:
    return allow.apply(change.diff, check_id, fn(change.diff))


def diff_checks(change: Change, progress: Progress) -> dict[str, CheckResult]:
    return {
        check_id: timed(check_id, progress, functools.partial(
            _diff_check, change, check_id, registry.diff_check(check_id)))
        for check_id in registry.DIFF
    }


def _report(change: Change, results: dict[str, CheckResult], start: float,
            isolated: Isolation = NOTHING_RUN) -> Report:
    checks = tuple(results[check_id] for check_id in registry.ORDER) + tuple(
        results[c.name] for c in change.config.checks)
    optional = {c.name for c in change.config.checks if not c.required}
    report = Report(decide(checks, strict=change.config.strict, advisory=optional),
                    change.base, change.head, time.monotonic() - start, checks, isolated)
    return redact.report(report)


def run(options: Options, progress: Progress | None = None) -> Report:
    """The whole gate: install, suite and base-tests on a fresh checkout, and beside them (on
    a thread: they are Python work, while the runtime checks mostly wait for commands) the
    diff checks."""
    start = time.monotonic()
    progress = OneAtATime(progress or Progress())
    logs = command_logs.prepare(options.logs) if options.logs else None
    change = prepare(options)
    if _nothing_to_judge(change):
        return _unchanged(change, start)
    # Before anything runs: `isolation = "required"` without a boundary stops here (exit 2).
    cache = outcome_cache.made() if change.config.cache else None
    boundary = isolation.choose(
        change.config.isolation, (change.repo, *options.protect, *([cache] if cache else [])),
        tmp_mb=change.config.tmp_size_mb)
    if change.shard is not None:  # the diff checks run once, in `gate merge`
        return _partial(change, runtime.checks(change, progress, boundary, logs), start,
                        boundary.isolation)
    scanned = background.Background(functools.partial(diff_checks, change, progress),
                                    "gate-diff-checks")
    ran = runtime.checks(change, progress, boundary, logs)
    return judged(change, scanned.result(), ran, start, boundary.isolation)


def _nothing_to_judge(change: Change) -> bool:
    """The head is the base, or already in it: no change, so nothing of it to run."""
    return change.head == change.base or change.diff.base == change.head


def _unchanged(change: Change, start: float) -> Report:
    """Base equal to head: a pass, and every check says why it did not run (the base's own
    failures are no change's doing)."""
    why = (f"nothing to judge: base and head are the same commit ({change.head[:12]})"
           if change.head == change.base else
           f"nothing to judge: the head ({change.head[:12]}) is already in the base")
    results = {check_id: registry.skipped(check_id, why, required=False)
               for check_id in registry.ORDER}
    results.update({c.name: user.skipped(c, why) for c in change.config.checks})
    return _report(change, results, start)


def judged(change: Change, scanned: dict[str, CheckResult], ran: runtime.RuntimeResults,
           start: float, isolated: Isolation) -> Report:
    """The report: the diff checks' results with what the runtime found added to them (tests
    that no longer run, or are skipped at run time; what the install left behind and the
    plugins only the head's runs loaded)."""
    removed = compare.add_findings(scanned[tests_removed.ID], ran.not_run,
                                   "test(s) that passed at base no longer run")
    skipped = compare.add_findings(scanned[skip_markers.ID], ran.skipped,
                                   "test(s) that passed at base are skipped at run time",
                                   window=3)
    harness = compare.add_findings(scanned[leftovers.CHECK_ID], ran.left_behind,
                                   "found by running: files the install left where tests "
                                   "load them, plugins only the head loaded")
    return _report(change, {**scanned, **ran.checks, tests_removed.ID: removed,
                            skip_markers.ID: skipped, leftovers.CHECK_ID: harness}, start,
                   isolated)


def _partial(change: Change, ran: runtime.RuntimeResults, start: float,
             isolated: Isolation) -> Report:
    """A shard's report: its runtime checks, the diff checks left to the merge, and what the
    merge needs (gate/shards/partial.py)."""
    assert change.shard is not None
    left = {check_id: registry.skipped(check_id, "run once, by `gate merge`", required=False)
            for check_id in registry.DIFF}
    share = ran.share or shares.Share(change.shard, None, (), None)
    report = _report(change, {**left, **ran.checks}, start, isolated)
    return dataclasses.replace(report, shard=partial.section(share, ran.left_behind))


def scan(options: Options, progress: Progress | None = None) -> Report:
    """The diff checks alone: no install, no test run."""
    start = time.monotonic()
    change = prepare(options)
    results = diff_checks(change, progress or Progress())
    for check_id in registry.RUNTIME:
        results[check_id] = registry.skipped(check_id, words.NOT_RUN_BY_SCAN,
                                             required=check_id not in (base_tests.ID, pinned.ID))
    results.update({c.name: user.skipped(c, words.NOT_RUN_BY_SCAN)
                    for c in change.config.checks})
    return _report(change, results, start)
