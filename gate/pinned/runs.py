"""pinned's runs, on today's primitives (to move onto the trial scheduler as they are): the
head's tests over the base's code, in the install's checkout for the while; and each mutant
in a copy of that checkout, side by side, inside the Workspace's boundary.

A copy (not a fresh clone) keeps what the install made in the checkout (node_modules, a
build); for Python, the copy's own code comes first on PYTHONPATH, ahead of an editable
install that points at the install's checkout."""
from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence

from gate.engine.context import Workspace
from gate.execution import judged_files
from gate.execution.overlay import overlay
from gate.mutants.mutant import Mutant
from gate.outcomes import scoped_command
from gate.outcomes.testrun import TestRun, run_tests


def on_base_code(ws: Workspace, command: str, base_code: Mapping[str, bytes | None],
                 tests: Sequence[str]) -> TestRun:
    """The head's `tests` (the whole command when its runner takes no paths) over the base's
    code, put back over the checkout for the run."""
    narrowed = scoped_command.narrowed(command, tests, ws.checkout)
    with overlay(ws.checkout, base_code):
        return run_tests(ws, narrowed or command, os.path.join(ws.scratch, "pinned-base.xml"),
                         log=ws.log("pinned-base-code"))


@dataclasses.dataclass(frozen=True)
class MutantRun:
    mutant: Mutant
    run: TestRun | None  # None: not started, the time budget was spent
    scoped: bool  # first the tests that reach it (the whole command too if they all pass)


def _python_path(ws: Workspace, copy: str) -> dict[str, str]:
    env = dict(ws.env)
    if "VIRTUAL_ENV" in env:
        first = [p for p in (os.path.join(copy, "src"), copy) if os.path.isdir(p)]
        env["PYTHONPATH"] = os.pathsep.join([*first, *filter(None, [env.get("PYTHONPATH")])])
    return env


def _one(ws: Workspace, command: str, mutant: Mutant, tests: Sequence[str], where: str,
         timeout: float) -> TestRun:
    shutil.copytree(ws.checkout, where, symlinks=True)
    try:
        target = os.path.join(where, mutant.path)
        # the install may have made the file a link (to the user's own files) or a FIFO:
        # read what it shows, never block, and replace it, never write through it
        text = judged_files.read(target, follow=True) or b""
        judged_files.write(target, mutant.applied(text))
        copy = dataclasses.replace(ws, checkout=where, env=_python_path(ws, where),
                                   timeout=min(ws.timeout, timeout))
        narrowed = scoped_command.narrowed(command, tests, where)
        name = f"pinned-{os.path.basename(where)}"
        report = os.path.join(ws.scratch, f"{name}.xml")
        run = run_tests(copy, narrowed or command, report, log=ws.log(name))
        if narrowed and run.passed:  # a test the scope missed may still kill it
            run = run_tests(copy, command, report, log=ws.log(f"{name}-whole"))
        return run
    finally:
        shutil.rmtree(where, ignore_errors=True)


def mutants(ws: Workspace, root: str, command: str, chosen: Sequence[Mutant],
            reach: Callable[[str], list[str]], seconds: float, workers: int,
            run_timeout: float) -> list[MutantRun]:
    """Each mutant run with the tests that reach it (`reach(path)`: [] for the whole
    command), `workers` at a time; none is started that would end (by the longest run so far)
    after `seconds`. A run is cut off after `run_timeout` (a mutant that loops forever)."""
    deadline = time.monotonic() + seconds
    scope = {path: reach(path) for path in dict.fromkeys(m.path for m in chosen)}
    scoped = {path: scoped_command.narrowed(command, tests, ws.checkout) is not None
              for path, tests in scope.items()}
    os.makedirs(root, exist_ok=True)

    longest = [0.0]  # the longest mutant run so far: one that would end past the deadline
    # is not started (the first ones always are)

    def job(i: int, mutant: Mutant) -> MutantRun:
        start = time.monotonic()
        if start + longest[0] >= deadline:
            return MutantRun(mutant, None, scoped[mutant.path])
        run = _one(ws, command, mutant, scope[mutant.path], os.path.join(root, f"mutant-{i}"),
                   run_timeout)
        longest[0] = max(longest[0], time.monotonic() - start)
        return MutantRun(mutant, run, scoped[mutant.path])

    with concurrent.futures.ThreadPoolExecutor(max(1, workers),
                                               thread_name_prefix="gate-mutant") as pool:
        return list(pool.map(job, range(1, len(chosen) + 1), chosen))

