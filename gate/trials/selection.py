"""Which of the suite's tests a run's trials run: all of them, or under `--shard` this shard's
share (a filter on the command and its environment, `gate/shards/split.py`). The runtime's flow
is the same either way; the selection says what differs:

    chosen = selection.of(change, ws, command)      # all the tests without --shard
    if chosen.command is None: ...                  # no test falls to this shard
    if chosen.found_nothing(runs): ...              # the runs ran none of them
    result = chosen.said(result)                    # "; shard 2/3: pytest's collection..."

- `compares`: the head's runs are compared with the base's outcomes here (a shard's are
  compared by `gate merge`, over the union of the shards);
- `runs_the_rest`: base-tests, pinned and the user checks run here (shard 1 of N);
- `base_share`: the base's outcomes of the same share;
- `share(runs, base)`: what a shard hands to the merge."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from gate.checks import suite
from gate.engine.change import Change
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult
from gate.outcomes.base_run import BaseOutcomes
from gate.outcomes.testrun import TestRun
from gate.shards import shares, split
from gate.shards.spec import Shard
from gate.vcs import git


@dataclasses.dataclass(frozen=True)
class Selection:
    shard: Shard | None = None
    how: split.Split | None = None  # the shard's split of the head's tests
    seconds: Mapping[str, float] = dataclasses.field(default_factory=dict)
    base_command: str | None = None  # the command the whole suite runs with

    @property
    def command(self) -> str | None:
        """The command that runs the selected tests; None: none falls to this shard."""
        return self.how.command if self.how is not None else self.base_command

    def workspace(self, ws: Workspace) -> Workspace:
        return self.how.workspace(ws) if self.how is not None else ws

    @property
    def compares(self) -> bool:
        return self.shard is None

    @property
    def runs_the_rest(self) -> bool:
        return self.shard is None or self.shard.first

    def nothing(self) -> CheckResult:
        """The suite's result where no test falls to this shard."""
        how = self.how.how if self.how is not None else "no split"
        return suite.nothing_to_run(self.shard, how)

    def found_nothing(self, runs: Sequence[TestRun]) -> bool:
        """Whether the runs ran none of the selected tests: none fell to this shard (then
        the shard passes, and hands no run to the merge)."""
        if self.shard is None or self.how is None:
            return False
        return shares.found_nothing(self.how, self.shard, runs)

    def said(self, result: CheckResult) -> CheckResult:
        """The suite's result as this selection says it: a shard names its split."""
        if self.shard is None or self.how is None:
            return result
        return dataclasses.replace(
            result, summary=f"{result.summary}; shard {self.shard}: {self.how.how}")

    def base_share(self, change: Change) -> shares.ShareOf | None:
        """This share of the base's suite (None: the whole of it)."""
        if self.shard is None:
            return None
        return shares.sharer(self.shard, self.seconds,
                             git.ls_files(change.repo, change.diff.base), "base")

    def share(self, runs: Sequence[TestRun], base: BaseOutcomes | None) -> shares.Share | None:
        """What a shard hands to `gate merge` (None without `--shard`)."""
        if self.shard is None:
            return None
        return shares.Share(self.shard, self.how, tuple(runs), base)


def of(change: Change, ws: Workspace, command: str) -> Selection:
    """The tests this run's trials run: all of them (`command`), or this shard's share."""
    if change.shard is None:
        return Selection(base_command=command)
    how = split.split(command, ws.checkout, git.ls_files(change.repo, change.head),
                      change.shard, change.seconds, ws.scratch, "head")
    return Selection(change.shard, how, change.seconds, command)

