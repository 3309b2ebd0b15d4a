"""The order a trial's tests run in, and how each runner is asked for it without editing the
test files: pytest through the gate's `gate_order` plugin (reversed, or a seeded shuffle of
the test files and of the tests in each), Jest `--randomize --seed`, Vitest
`--sequence.shuffle --sequence.seed`, go test `-shuffle` (through GOFLAGS). Other runners keep
their own order (file order): the trial says so."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Literal

from gate.execution.environment import extended
from gate.outcomes import scoped_command
from gate.outcomes.pytest_command import is_pytest
from gate.outcomes.runners import pytest as pytest_runner

PLUGIN = "gate_order"  # in gate/pytest_plugins

Kind = Literal["project", "reversed", "shuffled"]


@dataclasses.dataclass(frozen=True)
class Order:
    kind: Kind = "project"
    seed: int | None = None  # shuffled only

    def __str__(self) -> str:
        if self.kind == "project":
            return "the project's order"
        if self.kind == "reversed":
            return "reversed order"
        return f"shuffled order, seed {self.seed}"

    @property
    def short(self) -> str:
        """As the suite's summary lists it: "project", "reversed", "shuffled seed 1234"."""
        return self.kind if self.kind != "shuffled" else f"shuffled seed {self.seed}"


PROJECT = Order()


def for_run(n: int, seed: int) -> Order:
    """Run `n`'s order (1-based): the project's own, then reversed, then shuffled with seeds
    from `seed` on (reproducible: the gate derives it from the head)."""
    if n == 1:
        return PROJECT
    if n == 2:
        return Order("reversed")
    return Order("shuffled", seed + n - 3)


def seed_of(sha: str) -> int:
    """A seed that is the same for every gate run of one head: a finding can be reproduced."""
    digits = "".join(c for c in sha[:8] if c in "0123456789abcdef")
    return int(digits, 16) % 100_000 if digits else 1


@dataclasses.dataclass(frozen=True)
class Applied:
    """An order as a runner takes it: the command and the environment to run, and the order
    the runner will really use (its own where it can take none, shuffled where it cannot
    reverse)."""
    command: str
    env: dict[str, str]
    order: Order


def _shuffled(order: Order) -> Order:
    return order if order.kind == "shuffled" else Order("shuffled", order.seed or 1)


def apply(order: Order, command: str, checkout: str, env: Mapping[str, str]) -> Applied:
    """`command` and `env` (run in `checkout`) asked for `order` where the runner allows."""
    if order.kind == "project":
        return Applied(command, dict(env), order)
    if is_pytest(command):
        how = "reversed" if order.kind == "reversed" else f"shuffled:{order.seed}"
        return Applied(command, extended(env, {
            "GATE_ORDER": how, "PYTHONPATH": pytest_runner.PLUGIN_DIR,
            "PYTEST_PLUGINS": PLUGIN}), order)
    runner = scoped_command.js_runner(command, checkout)
    done = _shuffled(order)
    if runner is not None and runner[0] == "jest":
        return Applied(f"{runner[1]} --randomize --seed={done.seed}", dict(env), done)
    if runner is not None and runner[0] == "vitest":
        return Applied(f"{runner[1]} --sequence.shuffle --sequence.seed={done.seed}",
                       dict(env), done)
    if command.split()[:2] == ["go", "test"]:
        flags = f"{env.get('GOFLAGS', '')} -shuffle={done.seed}".strip()
        return Applied(command, {**env, "GOFLAGS": flags}, done)
    return Applied(command, dict(env), PROJECT)
