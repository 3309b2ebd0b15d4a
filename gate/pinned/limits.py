"""Each mutant's own time limit: a small multiple of what its tests took in the suite's first
run, so that a mutant that hangs costs that, not the gate's `timeout` nor a minute.

A mutant's run is its tests (the test files that reach it) plus what every run of the command
costs before and around them (start, imports, collection: the suite's run time less its tests'
time). Both were measured in the suite's own run on the same machine under the same load, so
the multiple holds on a loaded machine as on a quiet one; a floor keeps a run of a few
milliseconds' tests from being cut by a slow start."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from gate.outcomes.testrun import TestRun
from gate.pinned.runs import Limits

MULTIPLE = 3.0
FLOOR_S = 10.0


@dataclasses.dataclass(frozen=True)
class _Times:
    per_file: dict[str, float]  # test file -> its tests' seconds in the run
    overhead: float  # the run's time outside its tests


def _times(run: TestRun | None, one_run: float) -> _Times | None:
    if run is None or run.counts is None:
        return None
    timed = [c for c in run.counts.cases if c.seconds is not None and c.file]
    if not timed:
        return None
    per_file: dict[str, float] = {}
    for case in timed:
        assert case.file is not None and case.seconds is not None
        per_file[case.file] = per_file.get(case.file, 0.0) + case.seconds
    total = run.completed.duration_s or one_run
    return _Times(per_file, max(0.0, total - sum(per_file.values())))


def _cut(seconds: float, cap: float) -> float:
    return min(cap, max(FLOOR_S, MULTIPLE * seconds))


def from_run(run: TestRun | None, one_run: float, cap: float) -> Limits:
    """The limits read from the suite's first run (`one_run`: one run's seconds; `cap`: the
    gate's `timeout`). Without per-test times, every run gets the whole command's limit."""
    whole = _cut(one_run, cap)
    times = _times(run, one_run)
    if times is None:
        return Limits(lambda tests: whole, whole)

    def of(tests: Sequence[str]) -> float:
        if any(t not in times.per_file for t in tests):
            return whole  # a file the run did not time: no figure to scale
        return _cut(times.overhead + sum(times.per_file[t] for t in tests), cap)
    return Limits(of, whole)
