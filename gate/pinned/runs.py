"""pinned's runs, as trials on the one scheduler (`gate/trials`): the head's tests over the
base's code, and each mutant with the tests that reach it, side by side within the time budget.

Each trial has its files to itself: in the sealed boundary with overlays, in a layer of its
own above the install's checkout (the checkout is never written); else the base's code is put
over the install's checkout and back, and each mutant runs in a copy of it made when it starts
(what the install built kept; a FIFO it left out)."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence

from gate.execution import judged_files
from gate.execution.environment import extended
from gate.execution.run_workspace import Workspace
from gate.mutants.mutant import Mutant
from gate.outcomes import scoped_command
from gate.outcomes.testrun import TestRun
from gate.pinned import equivalent, guards, ran
from gate.trials import kinds, scheduler
from gate.trials.trial import Outcome, Trial


def on_base_code(ws: Workspace, command: str, base_code: Mapping[str, bytes | None],
                 tests: Sequence[str]) -> TestRun:
    """The head's `tests` (the whole command when its runner takes no paths) over the base's
    code, put back over the checkout for the run."""
    return scheduler.run([kinds.base_code(ws, command, base_code, tests)])[0].run


@dataclasses.dataclass(frozen=True)
class MutantRun:
    mutant: Mutant
    run: TestRun | None  # None: not started, the time budget was spent
    scoped: bool  # first the tests that reach it (the whole command too if they all pass)
    place: guards.Place | None = None  # Python: its statement and the guards around it
    record: ran.Record | None = None  # which tests ran its statement (pytest, Python)
    limit: float = 0.0  # its own time limit, in seconds (of the run that ended it)
    equivalent: bool = False  # shown equivalent (`equivalent.py`): its survival says nothing
    own: float = 0.0  # its own limit; `limit` is less where the time budget cut the run

    @property
    def cut(self) -> bool:
        """Whether its run was cut at the time budget's end, before its own limit."""
        return self.limit < self.own - 0.001


def _recorded(ws: Workspace, place: guards.Place | None, path: str, name: str) -> Workspace:
    """`ws` with the line recorder asked to watch `place` (unchanged when there is none)."""
    if place is None:
        return ws
    report = os.path.join(ws.scratch, f"{name}.lines")
    return dataclasses.replace(ws, env=extended(ws.env, ran.env(path, place, report)))


def _whole(command: str, limits: Limits) -> Callable[[Outcome], Trial | None]:
    """After a mutant's scoped run passed, the whole command: a test the scope missed may
    still kill it. Its limit: the whole suite's."""
    def then(done: Outcome) -> Trial | None:
        trial = done.trial
        if trial.command == command or not done.run.passed:
            return None
        name = f"{trial.name}-whole"
        ws = trial.workspace
        env = dict(ws.env)
        if "GATE_LINES_REPORT" in env:
            env["GATE_LINES_REPORT"] = os.path.join(ws.scratch, f"{name}.lines")
        return dataclasses.replace(trial, name=name, command=command, workspace=(
            dataclasses.replace(ws, env=env, timeout=limits.whole)))
    return then


@dataclasses.dataclass(frozen=True)
class Limits:
    """A mutant run's own time limit: `of(test files)` for the tests that reach it ([]: the
    whole command), `whole` for the whole command (both at most the gate's `timeout`)."""
    of: Callable[[Sequence[str]], float]
    whole: float


def mutants(ws: Workspace, root: str, command: str, chosen: Sequence[Mutant],
            reach: Callable[[str], list[str]], seconds: float, workers: int,
            limits: Limits, name: str = "pinned-mutant", record: bool = True,
            must: int = 0, floor: float = 0.0) -> list[MutantRun]:
    """Each mutant run with the tests that reach it (`reach(path)`: [] for the whole
    command), `workers` at a time; none is started that would end (by the longest run so far)
    after `seconds`. A run is cut off at its own limit (`limits`: a mutant that loops
    forever costs that, not the gate's `timeout`). A Python mutant's run records which tests
    ran its statement (`ran`). The first `must` are held to `floor` seconds instead, where
    that is more (`floor.py`: one mutant per changed function whatever the budget)."""
    scope = {path: reach(path) for path in dict.fromkeys(m.path for m in chosen)}
    scoped = {path: scoped_command.narrowed(command, tests, ws.checkout) is not None
              for path, tests in scope.items()}
    os.makedirs(root, exist_ok=True)
    # the install may have made the file a link (to the user's own files) or a FIFO: read
    # what it shows, never block
    shown = {path: judged_files.read(os.path.join(ws.checkout, path), follow=True) or b""
             for path in scope}
    places = [guards.place(shown[m.path], m.line) if record and m.path.endswith(".py")
              else None for m in chosen]
    trials = []
    for i, (m, place) in enumerate(zip(chosen, places, strict=True), 1):
        tests = scope[m.path] if scoped[m.path] else []
        own = limits.of(tests) if tests else limits.whole
        mine = dataclasses.replace(_recorded(ws, place, m.path, f"{name}-{i}"), timeout=own)
        trials.append(kinds.mutant(mine, command, m.path, m.applied(shown[m.path]),
                                   scope[m.path], f"{name}-{i}"))
    done = scheduler.run_within(trials, workers, seconds, then=_whole(command, limits),
                                place=kinds.in_copy(root), must=must, floor=floor)
    return [MutantRun(m, d.run if d is not None else None, scoped[m.path], place,
                      ran.read(d.run.lines) if d is not None and place else None,
                      d.trial.workspace.timeout if d is not None else 0.0,
                      equivalent.shown(m, shown[m.path]), trial.workspace.timeout)
            for m, place, d, trial in zip(chosen, places, done, trials, strict=True)]
