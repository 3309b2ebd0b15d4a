"""The trials other checks ask for, built in one place (`pinned` uses the last two):

    spaces = kinds.checkouts(repo, head_sha, ws, root, 4)       # checkouts sharing ws's env
    trials = [kinds.mutant(space, command, path, mutated, reach, f"mutant-{n}")
              for n, space in enumerate(spaces, 1)]
    outcomes = scheduler.run(trials, at_once=scheduler.cores())

- `head_tests_over_base`: the head's test files (new and changed ones) put over a checkout of
  the base, the command narrowed to them where the runner takes paths;
- `mutant`: one file of the head replaced by its mutant, the command narrowed to the tests
  that reach it where the runner takes paths;
- `base_code`: the base's code put back under the head's tests, in the install's checkout.

A trial whose `overlay_files` write its checkout needs a checkout of its own to run beside
others (`checkouts`, or `in_copy`: a copy of the install's checkout made when the trial starts,
what the install built there included); the files are put back when it ends. In the sealed
boundary with overlays none is needed: the files go into a layer of the trial's own."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence

from gate.execution import workspace
from gate.execution.run_workspace import Workspace
from gate.outcomes import scoped_command
from gate.trials import layer
from gate.trials.trial import Trial


def _layered(ws: Workspace) -> bool:
    """Whether every command sees `ws`'s installed checkout through an overlay of its own
    (the sealed boundary): then the install's checkout itself is a fresh one for each
    trial, node_modules and build output included, and no copy is needed."""
    return layer.usable(ws)


def _special(directory: str, names: list[str]) -> list[str]:
    """The names in `directory` that are neither files, directories nor links: a FIFO the
    install left (copying it would block or fail), a socket, a device."""
    def kept(name: str) -> bool:
        try:
            mode = os.lstat(os.path.join(directory, name)).st_mode
        except OSError:  # gone meanwhile
            return False
        return stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)
    return [n for n in names if not kept(n)]


def _python_path(ws: Workspace, copy: str) -> dict[str, str]:
    """For Python, the copy's own code first on PYTHONPATH, ahead of an editable install that
    points at the install's checkout."""
    env = dict(ws.env)
    if "VIRTUAL_ENV" in env:
        first = [p for p in (os.path.join(copy, "src"), copy) if os.path.isdir(p)]
        env["PYTHONPATH"] = os.pathsep.join([*first, *filter(None, [env.get("PYTHONPATH")])])
    return env


def in_copy(root: str) -> Callable[[Trial], contextlib.AbstractContextManager[Trial]]:
    """Where a trial runs when the boundary gives it no layer: a copy of its checkout at
    `root/<its name>` (what the install made there kept: node_modules, a build; links kept
    as links; FIFOs, sockets and devices left out), removed when it ends."""
    @contextlib.contextmanager
    def place(trial: Trial) -> Iterator[Trial]:
        ws = trial.workspace
        if _layered(ws):
            yield trial
            return
        where = os.path.join(root, trial.name)
        try:
            shutil.copytree(ws.checkout, where, symlinks=True, ignore=_special)
            yield dataclasses.replace(trial, workspace=dataclasses.replace(
                ws, checkout=where, env=_python_path(ws, where)))
        finally:
            shutil.rmtree(where, ignore_errors=True)
    return place


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


def base_code(head: Workspace, command: str, code: Mapping[str, bytes | None],
              tests: Sequence[str], name: str = "pinned-base-code") -> Trial:
    """The base's `code` (None: absent at base) put back under the head's `tests` (the whole
    command when its runner takes no paths), in the head's installed checkout."""
    narrowed = scoped_command.narrowed(command, tests, head.checkout)
    return Trial(name, head, narrowed or command, code="base", tests="head",
                 overlay_files=dict(code))


def mutant(head: Workspace, command: str, path: str, mutated: bytes, reach: Sequence[str],
           name: str) -> Trial:
    """The head with `path` mutated, running the test files in `reach` where it can."""
    narrowed = scoped_command.narrowed(command, sorted(reach), head.checkout)
    return Trial(name, head, narrowed or command, tests="selection",
                 overlay_files={path: mutated})
