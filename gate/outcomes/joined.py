"""Runs of parts of a suite read as one run of the whole: the shards' k-th runs in
`gate merge`, and a suite run split by test file across the cores (`gate/trials/pieces.py`).

    whole = joined.one_run([("shard 1", run_1), ("shard 2", run_2)])

It passes only if every part passed; its per-test outcomes are the union of the parts' (and
none where a part gave none: never a union that reads as if that part's tests had not run);
its output is that of the parts that did not pass, each under its label."""
from __future__ import annotations

from collections.abc import Sequence

from gate.execution import process
from gate.outcomes.record import Counts
from gate.outcomes.testrun import TestRun


def union(counts: Sequence[Counts]) -> Counts | None:
    """The parts' counts as one: every test of each, every plugin any part loaded (None
    where a part could not say), every tampering any part found."""
    if not counts:
        return None
    runners = {c.runner for c in counts}
    plugins = None if any(c.plugins is None for c in counts) else tuple(
        dict.fromkeys(p for c in counts for p in c.plugins or ()))
    return Counts(counts[0].runner if len(runners) == 1 else "+".join(sorted(runners)),
                  sum(c.passed for c in counts), sum(c.failed for c in counts),
                  sum(c.skipped for c in counts),
                  tuple(case for c in counts for case in c.cases),
                  all(c.complete for c in counts), counts[0].unit, plugins,
                  tuple(dict.fromkeys(t for c in counts for t in c.tampered)),
                  tuple(dict.fromkeys(e for c in counts for e in c.evidence)),
                  tuple(dict.fromkeys(w for c in counts for w in c.watched)))


def one_run(parts: Sequence[tuple[str, TestRun]]) -> TestRun:
    """The labelled parts' runs as one run of the whole suite."""
    bad = [(label, r) for label, r in parts if not r.passed]
    returncode: int | None = 0
    if bad:
        returncode = next((r.completed.returncode for _, r in bad
                           if r.completed.returncode not in (0, None)), None)
        if returncode is None and not any(r.completed.timed_out for _, r in bad):
            returncode = 1
    output = "\n".join(f"--- {label}: {r.problem()}\n{r.completed.output}" for label, r in bad)
    counted = [r.counts for _, r in parts if r.counts is not None]
    if len(counted) < len(parts):
        counted = []
    completed = process.Completed(
        "; ".join(dict.fromkeys(r.completed.command for _, r in parts)), returncode, output,
        any(r.completed.timed_out for _, r in parts),
        any(r.completed.not_found for _, r in parts),
        max(r.completed.duration_s for _, r in parts))
    running = next((r.running for _, r in parts if r.running), None)
    return TestRun(completed, union(counted), any(r.expects_report for _, r in parts),
                   running)
