"""`gate merge REPORT...`: the shards' partial reports judged as one run.

First the shards must agree: one base, one head, one N, every index from 1 to N exactly once,
one split of the tests, and no test in two shards; otherwise the gate cannot judge (exit 2,
saying what is missing). Then the union: the k-th suite run of every shard is one run of the
whole suite; the flaky, baseline and outcome comparisons run on it as in an unsharded run;
the diff checks run here, once. A shard that timed out or crashed fails the merged suite, named;
the merge never passes on the shards that came back."""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from gate.checks import base_tests, install, pinned, registry, suite, user
from gate.engine import redact, runner, runtime
from gate.engine.change import Options, prepare
from gate.engine.progress import Progress
from gate.errors import GateError
from gate.models import CheckResult, Finding, Isolation, Report
from gate.outcomes import baseline, compare, joined
from gate.outcomes.base_run import BaseOutcomes
from gate.outcomes.testrun import TestRun
from gate.shards import durations, partial
from gate.shards.partial import ShardReport


@dataclasses.dataclass(frozen=True)
class Merged:
    report: Report
    seconds: dict[str, float]  # each test file's seconds, for the next split


def _agree(shards: Sequence[ShardReport]) -> list[ShardReport]:
    """The shards in index order, once each, all of one change and one split."""
    if not shards:
        raise GateError("gate merge needs the shards' reports (from `gate run --shard I/N "
                        "--report FILE`)")
    first = shards[0]
    for s in shards[1:]:
        for what, mine, theirs in (("base", s.report.base, first.report.base),
                                   ("head", s.report.head, first.report.head),
                                   ("N", s.shard.total, first.shard.total)):
            if mine != theirs:
                raise GateError(f"{s.path} judged another {what} ({mine}) than {first.path} "
                                f"({theirs}): merge the reports of one gate run")
    by_index: dict[int, ShardReport] = {}
    for s in shards:
        if s.shard.index in by_index:
            raise GateError(f"shard {s.shard} is given twice ({by_index[s.shard.index].path} "
                            f"and {s.path}): pass each shard's report once")
        by_index[s.shard.index] = s
    total = first.shard.total
    missing = [i for i in range(1, total + 1) if i not in by_index]
    if missing:
        names = ", ".join(f"{i}/{total}" for i in missing)
        raise GateError(f"shard(s) {names} missing: its job did not write a report (timed "
                        "out, cancelled or crashed before the gate ended?); re-run it, then "
                        "merge again")
    splits = {tuple(sorted(s.units.items())) for s in shards if s.units is not None}
    if len(splits) > 1:
        raise GateError("the shards split the tests differently (another collection, or other "
                        "durations restored in some jobs): run every shard again")
    return [by_index[i] for i in range(1, total + 1)]


def _unit(units: dict[str, int], file: str) -> str | None:
    """The unit of the split that holds `file` (a test file, or a go package's directory)."""
    if file in units:
        return file
    directory = file.rsplit("/", 1)[0] if "/" in file else "."
    return directory if directory in units else None


def _exactly_once(shards: Sequence[ShardReport]) -> None:
    """No test ran in two shards; none ran in a shard its file does not fall to. A test is
    known by its file and name (runners that give no file for a passing test, node:test's,
    cannot be told apart from a namesake in another file: those are not compared)."""
    seen: dict[tuple[str, str], int] = {}
    for s in shards:
        here: set[tuple[str, str]] = set()
        for run in s.runs[:1]:
            for case in run.counts.cases if run.counts and run.counts.complete else ():
                if case.file is None:
                    continue
                here.add((case.file, case.name))
                unit = _unit(s.units, case.file) if s.units else None
                if unit is not None and s.units and s.units[unit] != s.shard.index:
                    raise GateError(f"{case.name} ran in shard {s.shard}, but its file falls "
                                    f"to shard {s.units[unit]}: the shards did not split "
                                    "alike; run every shard again")
        for key in here:
            if key in seen:
                raise GateError(f"{key[1]} ran in shards {seen[key]} and {s.shard.index}: a "
                                "test must run in exactly one shard; run every shard again")
            seen[key] = s.shard.index


def _runs(shards: Sequence[ShardReport]) -> list[TestRun]:
    most = max((len(s.runs) for s in shards), default=0)
    return [joined.one_run([(f"shard {s.shard.index}", s.runs[k])
                            for s in shards if k < len(s.runs)]) for k in range(most)]


def _base(shards: Sequence[ShardReport]) -> BaseOutcomes | None:
    found = [s.base for s in shards if s.base is not None]
    if not found:
        return None
    return BaseOutcomes(joined.union([b.counts for b in found if b.counts is not None]),
                        all(b.passed for b in found), all(b.installed for b in found))


def _worst(shards: Sequence[ShardReport], check_id: str) -> CheckResult:
    """A check every shard ran (the install): the first that did not pass, named, or the
    first shard's."""
    for s in shards:
        result = next(c for c in s.report.checks if c.id == check_id)
        if result.status not in ("passed", "skipped"):
            return dataclasses.replace(result, summary=f"shard {s.shard}: {result.summary}")
    return next(c for c in shards[0].report.checks if c.id == check_id)


def _suite(shards: Sequence[ShardReport], runs: list[TestRun], wanted: int) -> CheckResult:
    """The union's suite result; a shard whose suite did not run (its install failed, no
    command) decides it, named."""
    for s in shards:
        result = next(c for c in s.report.checks if c.id == suite.ID)
        if not s.runs and result.status not in ("passed",):
            return dataclasses.replace(result, summary=f"shard {s.shard}: {result.summary}")
    if not runs:
        return next(c for c in shards[0].report.checks if c.id == suite.ID)
    result = suite.judge(runs, wanted, duration_s=max(
        next(c for c in s.report.checks if c.id == suite.ID).duration_s for s in shards))
    n = len(shards)
    said = [f"shard {s.shard} " + ", ".join(dict.fromkeys(r.problem() for r in s.runs
                                                          if not r.passed))
            for s in shards if not all(r.passed for r in s.runs)]
    return dataclasses.replace(result, summary=f"{result.summary}; {n} shard{'s' * (n != 1)}"
                               + (f" ({'; '.join(said)})" if said else ""))


def _isolation(shards: Sequence[ShardReport]) -> Isolation:
    levels = {s.report.isolation.level for s in shards}
    if len(levels) == 1:
        return shards[0].report.isolation
    weakest = next(s.report.isolation for s in shards if s.report.isolation.level == "none")
    return Isolation(weakest.level, f"not every shard had a boundary: {weakest.detail}")


def merge(paths: Sequence[str], repo: str = ".", strict: bool | None = None,
          config: str | None = None, progress: Progress | None = None) -> Merged:
    start = time.monotonic()
    shards = _agree([partial.load(p) for p in paths])
    _exactly_once(shards)
    first = shards[0]
    change = prepare(Options(base=first.report.base, head=first.report.head, repo=repo,
                             strict=strict, config=config))
    scanned = runner.diff_checks(change, progress or Progress())
    runs = _runs(shards)
    wanted = max(len(s.runs) for s in shards) or change.config.runs
    results = {install.ID: _worst(shards, install.ID), suite.ID: _suite(shards, runs, wanted),
               **{c.id: c for c in first.report.checks if c.id in (base_tests.ID, pinned.ID)}}
    held = results.get(pinned.ID)
    if results[suite.ID].status != "passed" and held is not None and held.status != "skipped":
        # as in one unsharded run: a mutant is judged against a green suite, the whole one
        results[pinned.ID] = registry.skipped(pinned.ID, "skipped: the suite did not pass",
                                              required=False)
    by_id = {r.id: r for r in first.report.checks}
    results.update({c.name: by_id.get(c.name) or user.skipped(c, "not in shard 1's report")
                    for c in change.config.checks})
    base = _base(shards)
    found = compare.Comparison()
    head = next((r.counts for r in runs if r.counts is not None), None)
    if base is not None and base.counts is not None and head is not None and (
            base.counts.runner == head.runner):
        found = compare.compare(change.diff, base.counts, head)
        if found.note:
            whole = results[suite.ID]
            results[suite.ID] = dataclasses.replace(whole, summary=whole.summary + found.note)
    if baseline.needed(results[suite.ID]) and base is not None and runs:
        results[suite.ID] = redact.check(
            baseline.classify_suite(results[suite.ID], base.counts, base.passed)
            if base.installed else baseline.not_installed(results[suite.ID], "the install"))
    left: dict[tuple[str, int, str], Finding] = {}
    for s in shards:
        left.update({(f.path, f.line, f.message): f for f in s.left_behind})
    ran = runtime.RuntimeResults(results, found.not_run, found.skipped, tuple(left.values()))
    slowest = max(s.report.duration_s for s in shards)
    report = runner.judged(change, scanned, ran, start - slowest, _isolation(shards))
    cases = [c for r in runs[:1] if r.counts for c in r.counts.cases]
    return Merged(report, durations.from_cases(cases))
