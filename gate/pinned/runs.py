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

from gate.engine.context import Workspace
from gate.execution import judged_files
from gate.mutants.mutant import Mutant
from gate.outcomes import scoped_command
from gate.outcomes.testrun import TestRun
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


def _whole(command: str) -> Callable[[Outcome], Trial | None]:
    """After a mutant's scoped run passed, the whole command: a test the scope missed may
    still kill it."""
    def then(done: Outcome) -> Trial | None:
        trial = done.trial
        if trial.command == command or not done.run.passed:
            return None
        return dataclasses.replace(trial, name=f"{trial.name}-whole", command=command)
    return then


def mutants(ws: Workspace, root: str, command: str, chosen: Sequence[Mutant],
            reach: Callable[[str], list[str]], seconds: float, workers: int,
            run_timeout: float, name: str = "pinned-mutant") -> list[MutantRun]:
    """Each mutant run with the tests that reach it (`reach(path)`: [] for the whole
    command), `workers` at a time; none is started that would end (by the longest run so far)
    after `seconds`. A run is cut off after `run_timeout` (a mutant that loops forever)."""
    scope = {path: reach(path) for path in dict.fromkeys(m.path for m in chosen)}
    scoped = {path: scoped_command.narrowed(command, tests, ws.checkout) is not None
              for path, tests in scope.items()}
    os.makedirs(root, exist_ok=True)
    limited = dataclasses.replace(ws, timeout=min(ws.timeout, run_timeout))
    # the install may have made the file a link (to the user's own files) or a FIFO: read
    # what it shows, never block
    shown = {path: judged_files.read(os.path.join(ws.checkout, path), follow=True) or b""
             for path in scope}
    trials = [kinds.mutant(limited, command, m.path, m.applied(shown[m.path]), scope[m.path],
                           f"{name}-{i}") for i, m in enumerate(chosen, 1)]
    done = scheduler.run_within(trials, workers, seconds, then=_whole(command),
                                place=kinds.in_copy(root))
    return [MutantRun(m, d.run if d is not None else None, scoped[m.path])
            for m, d in zip(chosen, done, strict=True)]
