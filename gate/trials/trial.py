"""A trial: one run of the judged tests, as a value. Which code (the head's or the base's, in
the checkout), which tests (the head's tree, the base's tree put back over the head, a
selection, a shard's share), in which order, in which checkout and environment (the
`workspace`: the isolation boundary decides what it is made from). Running it
(`scheduler.py`) gives its per-test outcomes.

The kinds the gate runs, as rows of this one value:

- a suite run: `Trial(name="suite-run-2", workspace=ws, command=cmd, order=Order("reversed"))`;
- the base's outcomes: `code="base"`, in the base's own checkout and environment;
- base-tests: `tests="base"`, with the base's test tree in `overlay_files` and the narrowed
  command (`extra_addopts` for the base's pytest configuration);
- a shard: the shard's command and environment (`gate/shards/split.py`), `tests="shard"`;
- `pinned`'s head tests over the base's code: `code="base", tests="head"`, the head's test
  files in `overlay_files` over a checkout of the base (the narrowed command where the runner
  takes paths);
- a mutant: `tests="selection"`, the one mutated file in `overlay_files` over a checkout of
  the head, the command narrowed to the tests that reach it.

Trials that write over their checkout (`overlay_files`) must each have a checkout of their
own when they run at the same time: the scheduler puts the files over and back around the
run, and two trials sharing one checkout would see each other's."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Literal

from gate.execution.conditions import USUAL, Conditions
from gate.execution.run_workspace import Workspace
from gate.outcomes.testrun import TestRun
from gate.trials.order import PROJECT, Order

Code = Literal["base", "head"]


@dataclasses.dataclass(frozen=True)
class Trial:
    name: str  # its log's, report's and temporary directory's name: unique in a gate run
    workspace: Workspace  # the checkout and environment it runs in
    command: str
    code: Code = "head"
    tests: str = "head"  # whose tests: head, base, selection, shard (said in reports)
    order: Order = PROJECT
    overlay_files: Mapping[str, bytes | None] = dataclasses.field(default_factory=dict)
    extra_addopts: tuple[str, ...] = ()  # more pytest options (PYTEST_ADDOPTS)
    conditions: Conditions = USUAL  # the clock, host name... it runs under (`varied.py`)

    @property
    def checkout(self) -> str:
        return self.workspace.checkout


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a trial gave: its run (per-test outcomes where the runner reports them) and the
    order the runner really used (its own where it takes no other)."""
    trial: Trial
    run: TestRun
    order: Order
