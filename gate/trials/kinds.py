"""The trials other checks ask for, built in one place (`pinned` uses the last two):

    spaces = kinds.checkouts(repo, head_sha, ws, root, 4)       # checkouts sharing ws's env
    trials = [kinds.mutant(space, command, path, mutated, reach, f"mutant-{n}")
              for n, space in enumerate(spaces, 1)]
    outcomes = scheduler.run(trials, at_once=scheduler.cores())

- `head_tests_over_base`: the head's test files (new and changed ones) put over a checkout of
  the base, the command narrowed to them where the runner takes paths;
- `mutant`: one file of the head replaced by its mutant, the command narrowed to the tests
  that reach it where the runner takes paths.

A trial whose `overlay_files` write its checkout needs a checkout of its own to run beside
others (`checkouts`); the files are put back when it ends."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence

from gate.engine.context import Workspace
from gate.execution import workspace
from gate.outcomes import scoped_command
from gate.trials.trial import Trial


def _layered(ws: Workspace) -> bool:
    """Whether every command sees `ws`'s installed checkout through an overlay of its own
    (the sealed boundary): then the install's checkout itself is a fresh one for each
    trial, node_modules and build output included, and no copy is needed."""
    return ws.sealed and ws.boundary.overlays


def checkouts(repo: str, sha: str, ws: Workspace, root: str, n: int,
              name: str = "checkout") -> list[Workspace]:
    """`ws` and n - 1 more checkouts of `sha` under `root`, sharing `ws`'s environment; in
    the sealed boundary, `ws` n times (each command's overlay keeps them apart)."""
    if _layered(ws):
        return [ws] * n
    extra = [workspace.checkout(repo, sha, os.path.join(root, f"{name}-{i}"))
             for i in range(2, n + 1)]
    return [ws, *(dataclasses.replace(ws, checkout=path) for path in extra)]


def fresh(repo: str, sha: str, ws: Workspace, root: str, name: str) -> Workspace:
    """A new checkout of `sha` at `root/name`, sharing `ws`'s environment; in the sealed
    boundary, `ws` itself (each command starts from the install's state)."""
    if _layered(ws):
        return ws
    path = workspace.checkout(repo, sha, os.path.join(root, name))
    return dataclasses.replace(ws, checkout=path)


def head_tests_over_base(base: Workspace, command: str, head_tests: Mapping[str, bytes | None],
                         name: str = "head-tests-over-base") -> Trial:
    """The head's test files (None: absent at head) over the base's code in `base`."""
    present = sorted(p for p, content in head_tests.items() if content is not None)
    narrowed = scoped_command.narrowed(command, present, base.checkout)
    return Trial(name, base, narrowed or command, code="base", tests="head",
                 overlay_files=dict(head_tests))


def mutant(head: Workspace, command: str, path: str, mutated: bytes, reach: Sequence[str],
           name: str) -> Trial:
    """The head with `path` mutated, running the test files in `reach` where it can."""
    narrowed = scoped_command.narrowed(command, sorted(reach), head.checkout)
    return Trial(name, head, narrowed or command, tests="selection",
                 overlay_files={path: mutated})
