"""A shard's share of a suite: the command and environment that run it, whether a run of it
found nothing to run (no test fell to this shard), and what the shard hands to the merge."""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence

from gate.execution.run_workspace import Workspace
from gate.outcomes.base_run import BaseOutcomes
from gate.outcomes.testrun import TestRun
from gate.shards import split
from gate.shards.spec import Shard


@dataclasses.dataclass(frozen=True)
class Share:
    """What a shard hands to `gate merge` beside its report: how the head's tests were split,
    the head's suite runs (none when no test fell to this shard) and the base's outcomes of
    this shard's share of the base."""
    shard: Shard
    head: split.Split | None
    runs: tuple[TestRun, ...]
    base: BaseOutcomes | None


def found_nothing(how: split.Split, shard: Shard, runs: Sequence[TestRun]) -> bool:
    """No test fell to this shard: the split gives it nothing, and no run ran a test (pytest
    with every item deselected, a runner's own --shard with no file for this one). The merge
    still checks the union of the shards against the base and the split."""
    if how.command is None:
        return True
    whole = how.whole()
    if whole is not None and shard.index in whole.values():
        return False
    # where the runner split (no whole split known), the run must also have ended well: a
    # crash that ran nothing is a failure, not an empty share
    return all((whole is not None or r.completed.ok)
               and (r.counts is None or r.counts.ran == 0) for r in runs)


ShareOf = Callable[[Workspace, str],
                   tuple[Workspace, str | None, Callable[[TestRun], bool], split.Split]]


def sharer(shard: Shard, seconds: Mapping[str, float], files: Sequence[str],
           tag: str) -> ShareOf:
    """For a checkout's workspace and test command: this shard's workspace and command (None:
    nothing to run), a test of whether a run found nothing to run, and the split."""
    def share(ws: Workspace, command: str) -> tuple[Workspace, str | None,
                                                    Callable[[TestRun], bool], split.Split]:
        how = split.split(command, ws.checkout, files, shard, seconds, ws.scratch, tag)
        return (how.workspace(ws), how.command,
                lambda run: found_nothing(how, shard, [run]), how)
    return share


def cache_part(shard: Shard | None, seconds: Mapping[str, float]) -> str:
    """What a shard adds to the base outcomes' cache key: its share depends on both."""
    if shard is None:
        return ""
    text = json.dumps(sorted(seconds.items()))
    return f"shard {shard} {hashlib.sha256(text.encode()).hexdigest()[:16]}"
