"""A shard's partial report: the usual JSON report with a `shard` object that carries what
`gate merge` needs to judge the union as one run: how the tests were split, each suite run's
per-test outcomes (with the failing runs' output tail), the base's outcomes of its share, and
what the install left where the tests load it."""
from __future__ import annotations

import dataclasses
from typing import Any

from gate.errors import GateError
from gate.execution import process
from gate.models import Finding, Report
from gate.outcomes.base_run import BaseOutcomes
from gate.outcomes.record import counts_from_json, counts_to_json
from gate.outcomes.testrun import TestRun
from gate.report import json_report
from gate.shards.shares import Share
from gate.shards.spec import Shard

FORMAT = 1
OUTPUT_LINES = 200  # of a run that did not pass: what the merged report's excerpt is cut from


def section(share: Share, left_behind: tuple[Finding, ...]) -> dict[str, Any]:
    how = share.head
    units = how.whole() if how is not None else None
    return {
        "index": share.shard.index, "total": share.shard.total, "format": FORMAT,
        "split": {"how": how.how if how else "", "units": dict(units) if units else None},
        # the tests this shard ran (its first run's, where the runner names them)
        "tests": [c.name for r in share.runs[:1] if r.counts for c in r.counts.cases],
        "runs": [_run(r) for r in share.runs],
        "base": share.base.to_json() if share.base is not None else None,
        "left_behind": [f.to_json() for f in left_behind],
    }


def _run(run: TestRun) -> dict[str, Any]:
    c = run.completed
    return {"command": c.command, "returncode": c.returncode, "timed_out": c.timed_out,
            "not_found": c.not_found, "duration_s": round(c.duration_s, 3),
            "output": "" if run.passed else c.tail(OUTPUT_LINES),
            "expects_report": run.expects_report,
            "counts": counts_to_json(run.counts) if run.counts is not None else None}


def _run_from(data: dict[str, Any]) -> TestRun:
    returncode = data["returncode"]
    completed = process.Completed(
        str(data["command"]), None if returncode is None else int(returncode),
        str(data["output"]), bool(data["timed_out"]), bool(data["not_found"]),
        float(data["duration_s"]))
    counts = data["counts"]
    return TestRun(completed, None if counts is None else counts_from_json(counts),
                   bool(data["expects_report"]))


@dataclasses.dataclass(frozen=True)
class ShardReport:
    path: str
    report: Report
    shard: Shard
    how: str
    units: dict[str, int] | None  # the whole split, unit -> shard, where one was made
    runs: tuple[TestRun, ...]
    base: BaseOutcomes | None
    left_behind: tuple[Finding, ...]


def load(path: str) -> ShardReport:
    report = json_report.load(path)
    data = report.shard
    if data is None:
        raise GateError(f"{path} is not a shard's report: it has no `shard` object (write one "
                        "with `gate run --shard I/N --report FILE`)")
    try:
        if data["format"] != FORMAT:
            raise GateError(f"{path}: a shard report of format {data['format']}, this gate "
                            f"reads {FORMAT}: run the shards and the merge with one gate")
        units = data["split"]["units"]
        base = data["base"]
        found = BaseOutcomes.from_json(base) if base is not None else None
        if base is not None and found is None:
            raise ValueError("its base outcomes do not read")
        return ShardReport(
            path, report, Shard(int(data["index"]), int(data["total"])),
            str(data["split"]["how"]),
            {str(k): int(v) for k, v in units.items()} if units is not None else None,
            tuple(_run_from(r) for r in data["runs"]),
            dataclasses.replace(found, cached=False) if found else None,
            tuple(json_report.finding(f) for f in data["left_behind"]))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise GateError(f"{path}: its `shard` object does not read ({type(e).__name__}: {e}); "
                        "was it written by `gate run --shard`?") from None
