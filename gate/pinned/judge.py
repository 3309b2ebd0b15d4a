"""Each mutant's run judged: killed, survived, timed out at its own limit, or not run here.

- killed: its run failed, and (where the line recorder watched it: Python under pytest) a test
  that failed ran its statement, or the statement ran outside every test (at import) in a run
  that failed. A run that failed only in tests that never ran it survived: those tests fail
  for something else than what the mutant changed (a hash of the file, its source text);
- survived: every test passed, or only tests that never ran its statement failed;
- not run here (out of the findings, said in the summary): a survivor whose statement no test
  ran, behind a version or platform check, or behind an optional import whose `except
  ImportError` ran here (the import fails on this machine); and a survivor shown equivalent
  (`equivalent.py`). Survivors in a file no test loads at all are the probe's (`probe.py`)."""
from __future__ import annotations

import dataclasses

from gate.outcomes.record import CaseResult
from gate.pinned.ran import Record
from gate.pinned.runs import MutantRun

_WHY = {"version": "behind a check of the Python version",
        "platform": "behind a check of the platform",
        "optional-import": "behind an optional import that fails here"}
EQUIVALENT = "shown equivalent (an `if` that only skips what changes nothing)"


@dataclasses.dataclass(frozen=True)
class Judged:
    killed: list[MutantRun]
    survived: list[MutantRun]
    timed_out: list[MutantRun]
    not_run_here: dict[str, list[MutantRun]]  # why -> survivors no test could run or tell
    failed_elsewhere: list[MutantRun]  # of the survivors: their run failed, in other tests


def _same(case: CaseResult, test: str) -> bool:
    name = case.name
    return name == test or test.endswith("/" + name) or name.endswith("/" + test)


def _killed_by_runner(d: MutantRun, record: Record) -> bool:
    """Whether a failed test ran the statement (or it ran at import in a run that failed)."""
    assert d.run is not None and d.place is not None
    ran = record.ran(d.place.statement)
    if "" in ran:
        return True
    failed = d.run.failed_tests
    return any(_same(c, t) for c in failed for t in ran if t)


def _recorded(d: MutantRun) -> Record | None:
    """The record to judge by (None: judge by the run alone: not Python, not pytest, or the
    recorder's tracer was replaced by another, coverage's below Python 3.12). A pytest run of
    a Python mutant with no record at all shows no test running its line."""
    if d.place is None or d.run is None or d.run.counts is None:
        return None
    if d.run.counts.runner != "pytest":
        return None
    if d.record is None:
        return Record({}, lost=False)
    return None if d.record.lost else d.record


def seen_running(d: MutantRun) -> bool:
    """Whether the record shows a test (or an import) running the mutant's statement: its
    file is loaded, whatever a probe would say."""
    record = d.record
    return (d.place is not None and record is not None and not record.lost
            and bool(record.ran(d.place.statement)))


def _not_run_here(d: MutantRun) -> str | None:
    """Why no test could run this survivor here (None: a test could)."""
    record = d.record
    if d.place is None or d.place.guard is None or record is None or record.lost:
        return None
    if record.ran(d.place.statement):
        return None
    if d.place.guard == "optional-import" and not record.ran(d.place.handlers):
        return None  # the import succeeds here: the tests could have run it
    return _WHY[d.place.guard]


def judge(done: list[MutantRun]) -> Judged:
    killed, survived, timed_out, elsewhere = [], [], [], []
    not_run: dict[str, list[MutantRun]] = {}
    for d in done:
        if d.run is None:
            continue
        if d.run.completed.timed_out:
            timed_out.append(d)
            continue
        record = _recorded(d)
        if not d.run.passed and (record is None or _killed_by_runner(d, record)):
            killed.append(d)
            continue
        why = EQUIVALENT if d.equivalent else _not_run_here(d)
        if why is not None:
            not_run.setdefault(why, []).append(d)
            continue
        survived.append(d)
        if not d.run.passed:
            elsewhere.append(d)
    return Judged(killed, survived, timed_out, not_run, elsewhere)
