"""The Node preload's witness (`gate/preload/node/gate-report.cjs`): what Jest, Vitest and
Mocha sent on the evidence channel as their tests ran decides their outcomes, as pytest's
session plugin does for pytest (`evidence.py`). What the judged command printed, left or
exited with is held against it, and each disagreement is a "kind: what" line in
`Counts.evidence` (the `harness` check's `evidence-tampered`):

- `summary-disagrees`: the runner's printed summary counts other passes, failures or skips;
- `exit-disagrees`: the runner ended its run failing and the command exited 0;
- `end-missing`: a runner sent its tests and never its end, and the command exited 0;
- `missing`: a Jest, Vitest or Mocha summary was printed, the command exited 0, and the
  preload sent nothing (kept from loading: NODE_OPTIONS replaced, or the runner not run);
- `digest`, `unreadable`: a line that is not in its thread's chain, or does not read.

Each thread of each process sends its own chain ({p, d, h}: h is the SHA-256 of the last h
and d): a line another writer adds is not in it, and a runner's end says how many records
its thread sent before it. What the chain cannot tell: a forger that starts a chain of its
own under another thread's name (pytest's sessions share that limit)."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

from gate.outcomes.evidence import Evidence
from gate.outcomes.record import CaseResult, Counts, Watched
from gate.outcomes.runners import reports

RUNNERS = ("jest", "vitest", "mocha")


@dataclasses.dataclass
class Sent:
    cases: dict[str, list[CaseResult]] = dataclasses.field(default_factory=dict)  # by runner
    failed_ends: list[str] = dataclasses.field(default_factory=list)  # runners ended failing
    loads: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)  # role, file, by
    ended: set[str] = dataclasses.field(default_factory=set)
    problems: list[str] = dataclasses.field(default_factory=list)


def _chained(messages: Sequence[dict[str, Any]], problems: list[str]) -> list[
        tuple[str, int, dict[str, Any]]]:
    """(stream, records sent before, record) for every line in its thread's chain."""
    last: dict[str, str] = {}
    counted: dict[str, int] = {}
    out = []
    for message in messages:
        stream, text, digest = message.get("p"), message.get("d"), message.get("h")
        if not (isinstance(stream, str) and isinstance(text, str) and isinstance(digest, str)):
            problems.append("unreadable: a Node record without its stream, text or digest")
            continue
        if hashlib.sha256((last.get(stream, "") + text).encode()).hexdigest() != digest:
            problems.append(f"digest: a record of process {stream[:30]} is not in its chain "
                            "(written by something other than the gate's preload)")
            continue
        last[stream] = digest
        try:
            record = json.loads(text)
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except ValueError:
            problems.append(f"unreadable: a record of process {stream[:30]} does not read")
            continue
        out.append((stream, counted.get(stream, 0), record))
        counted[stream] = counted.get(stream, 0) + 1
    return out


def read(found: Evidence) -> Sent:
    sent = Sent()
    records: dict[str, list[dict[str, Any]]] = {}
    for stream, before, record in _chained(found.node, sent.problems):
        runner = record.get("runner")
        if record.get("t") == "load":
            role, file, by = record.get("role"), record.get("file"), record.get("by")
            if isinstance(role, str) and isinstance(file, str) and isinstance(by, str):
                sent.loads.append((role, file, by))
            else:
                sent.problems.append("unreadable: a Node load record that does not read")
        elif runner not in RUNNERS:
            sent.problems.append("unreadable: a Node record of no known runner")
        elif record.get("t") == "case":
            records.setdefault(runner, []).append(
                {k: v for k, v in record.items() if k != "t"})
        elif record.get("t") == "end" and record.get("count") == before:
            sent.ended.add(runner)
            if record.get("failed") is True:
                sent.failed_ends.append(runner)
        elif record.get("t") == "end":
            sent.problems.append(f"digest: {runner}'s end in process {stream[:30]} counts "
                                 f"{record.get('count')!r} records, {before} were sent")
        else:
            sent.problems.append("unreadable: a Node record of no known type")
    for runner, lines in records.items():
        cases = reports.sent(lines, runner)
        if cases is None:
            sent.problems.append(f"unreadable: a {runner} test record that does not read")
        else:
            sent.cases[runner] = cases
    if any(r.get("runner") in RUNNERS for r in found.records):
        sent.problems.append("unreadable: a Jest, Vitest or Mocha test sent outside the "
                             "gate's preload's chain (written by the tests)")
    return sent


def _tally(cases: Sequence[CaseResult]) -> tuple[int, int, int]:
    return (sum(c.outcome == "passed" for c in cases), sum(c.outcome == "failed" for c in cases),
            sum(c.outcome == "skipped" for c in cases))


def _say(tally: tuple[int, int, int]) -> str:
    words = ("passed", "failed", "skipped")
    return ", ".join(f"{n} {w}" for n, w in zip(tally, words, strict=True) if n) or "no test"


def reconcile(counts: Counts | None, found: Evidence, *, returncode: int | None,
              timed_out: bool, checkout: str) -> Counts | None:
    """`counts` (read from what the command printed) with the outcomes the Node preload sent
    in their place, every disagreement said, and what the runner loaded of the checkout
    around the tests (`LOADED` records in `Counts.watched`)."""
    sent = read(found)
    problems = sent.problems
    printed = counts.runner if counts is not None and counts.runner in RUNNERS else None
    claims = returncode == 0 and not timed_out  # the command says the tests passed
    if not sent.cases:
        if printed is not None and claims and printed not in sent.ended:
            problems.append(f"missing: {printed} printed its summary and the command exited 0, "
                            "and the gate's preload sent nothing (kept from loading: "
                            "NODE_OPTIONS replaced, or the summary printed by something else)")
        return _said(_with_loads(counts, sent.loads, checkout), problems)
    cases = [c for runner in RUNNERS for c in sent.cases.get(runner, [])]
    if printed is not None and not timed_out:
        mine = _tally(sent.cases.get(printed, []))
        shown = (counts.passed, counts.failed, counts.skipped) if counts else mine
        if shown != mine:
            problems.append(f"summary-disagrees: {printed} printed {_say(shown)}, its tests "
                            f"as sent were {_say(mine)}")
    if claims:
        problems += [f"exit-disagrees: {runner} ended its run failing and the command exited 0"
                     for runner in dict.fromkeys(sent.failed_ends)]
        problems += [f"end-missing: {runner} sent its tests and never its end, and the "
                     "command exited 0 (the runner's process left before it finished)"
                     for runner in sent.cases if runner not in sent.ended]
    runner = printed or max(sent.cases, key=lambda r: len(sent.cases[r]))
    return _said(_with_loads(_witnessed(counts, cases, printed, runner), sent.loads, checkout),
                 problems)


def _witnessed(counts: Counts | None, cases: list[CaseResult], printed: str | None,
               runner: str) -> Counts:
    """The outcomes as sent; a failing test keeps the printed message where the summary named
    it. Another runner's summary (`pytest && npm test`) keeps its own tests beside them."""
    if counts is not None and printed is None:
        passed, failed, skipped = _tally(cases)
        return dataclasses.replace(
            counts, passed=counts.passed + passed, failed=counts.failed + failed,
            skipped=counts.skipped + skipped, cases=(*counts.cases, *cases))
    shown = {c.name: c for c in counts.failures()} if counts is not None else {}
    merged = []
    for case in cases:
        seen = shown.get(case.name) if case.outcome == "failed" else None
        merged.append(dataclasses.replace(case, message=seen.message)
                      if seen is not None and seen.message else case)
    passed, failed, skipped = _tally(merged)
    return dataclasses.replace(counts or Counts(runner, 0, 0, 0), runner=runner, passed=passed,
                               failed=failed, skipped=skipped, cases=tuple(merged),
                               complete=True)


LOADED = "runner-loaded"  # a Watched kind: its detail says as what, and by which code


def _with_loads(counts: Counts | None, loads: list[tuple[str, str, str]],
                checkout: str) -> Counts | None:
    root = os.path.realpath(checkout)
    seen = []
    for role, file, by in loads:
        inside = os.path.relpath(os.path.realpath(file), root)
        if inside.startswith(os.pardir) or os.path.isabs(inside):
            continue
        where = os.path.relpath(os.path.realpath(by), root) if by.startswith("/") else by
        by_name = by if where.startswith(os.pardir) else where
        seen.append(Watched(LOADED, f"{role} (loaded by {by_name[-120:]})",
                            inside.replace(os.sep, "/"), 1))
    if counts is None or not seen:
        return counts
    return dataclasses.replace(counts, watched=tuple(dict.fromkeys([*counts.watched, *seen])))


def _said(counts: Counts | None, problems: list[str]) -> Counts | None:
    if counts is None or not problems:
        return counts
    return dataclasses.replace(counts, evidence=tuple(dict.fromkeys([*counts.evidence,
                                                                    *problems])))
