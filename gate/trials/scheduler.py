"""The one scheduler: runs trials over the machine's cores and gives each its outcome.

    outcomes = scheduler.run([trial, ...], at_once=scheduler.cores())  # in the trials' order

Each trial runs with a temporary directory of its own (TMPDIR; under isolation a file system
of its own per command), in its own checkout where it has one, its order applied through the
runner (`order.py`), and the files it puts over its checkout in a layer of its own in the
sealed boundary (`layer.py`), else put over the checkout and back afterwards. `at_once`
trials run at the same time (1: one after another, in the given order); a trial that cannot
start (the command is not found) or hangs (cut at its time limit) stops the trials after it
when they run one after another. `run_within` runs them under a time budget (pinned's
mutants: none is started that would end past it)."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import TypeVar

from gate.execution import waiting, workspace
from gate.execution.overlay import overlay
from gate.execution.run_workspace import Workspace
from gate.outcomes.testrun import run_tests
from gate.trials import layer
from gate.trials import order as orders
from gate.trials.trial import Outcome, Trial


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _tmp(trial: Trial) -> str:
    """The trial's own temporary directory, beside the run's other directories (in the
    boundary each command after the install sees it through its overlay of the run's root,
    so what it writes there goes with it; the install's TMPDIR is a tmpfs of its own)."""
    path = os.path.join(os.path.dirname(trial.workspace.scratch), f"tmp-{trial.name}")
    os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def _files_over(trial: Trial, ws: Workspace) -> Iterator[Workspace]:
    """`ws` with the trial's files over its checkout: in a layer of the trial's own where
    the boundary shows the checkout through an overlay, else written and put back."""
    if not trial.overlay_files:
        yield ws
    elif layer.usable(ws):
        where = os.path.join(workspace.layers_dir(ws.root()), trial.name)
        with layer.over(ws, where, trial.overlay_files) as mine:
            yield mine
    else:
        with overlay(ws.checkout, trial.overlay_files):
            yield ws


def run_one(trial: Trial) -> Outcome:
    ws = trial.workspace
    applied = orders.apply(trial.order, trial.command, ws.checkout, ws.env)
    ws = dataclasses.replace(ws, env={**applied.env, "TMPDIR": _tmp(trial)},
                             conditions=trial.conditions)
    report = os.path.join(ws.scratch, f"{trial.name}.xml")
    with _files_over(trial, ws) as ws:
        done = run_tests(ws, applied.command, report, extra_addopts=trial.extra_addopts,
                         log=ws.log(trial.name))
    return Outcome(trial, done, applied.order)


Place = Callable[[Trial], AbstractContextManager[Trial]]


def _cut(trial: Trial, deadline: float) -> Trial:
    """`trial` with its time limit cut to what is left until `deadline`: a run started within
    the budget ends with it, however long its own limit (emoji 69c73d5's mutant, a cache
    removed, ran to its own limit of 3 suite runs)."""
    left = max(0.0, deadline - time.monotonic())
    if trial.workspace.timeout <= left:
        return trial
    return dataclasses.replace(trial, workspace=dataclasses.replace(trial.workspace,
                                                                    timeout=left))


def run_within(trials: Sequence[Trial], at_once: int, seconds: float,
               then: Callable[[Outcome], Trial | None] | None = None,
               place: Place | None = None, must: int = 0, floor: float = 0.0,
               ) -> list[Outcome | None]:
    """Every trial's outcome, in the order given, `at_once` at a time; None for one not
    started because it would end (by the longest so far, the first ones always start) after
    `seconds`. `then(outcome)`: a trial to run next in the same place (a mutant's whole
    suite after the tests that reach it passed), whose outcome is the one kept, run only if
    it would end (by the first's time) before `seconds` are up, else the pair is None. `place`:
    the trial as it runs where it is made when it starts and gone when it ends (a copy of
    the install's checkout, `kinds.in_copy`). The first `must` trials are held to `floor`
    seconds instead, where that is more (`pinned`: one mutant per changed function runs
    whatever the budget). A trial's time limit is cut to its deadline: the budget is a wall,
    not only a rule for starting."""
    now = time.monotonic()
    deadlines = {id(t): now + (max(seconds, floor) if i < must else seconds)
                 for i, t in enumerate(trials)}
    longest = [0.0]

    def job(trial: Trial) -> Outcome | None:
        start = time.monotonic()
        deadline = deadlines[id(trial)]
        if start + longest[0] >= deadline:
            return None
        with (place or contextlib.nullcontext)(_cut(trial, deadline)) as placed:
            done: Outcome | None = run_one(placed)
            assert done is not None
            after = then(done) if then is not None else None
            if after is not None:
                # the next trial is under the budget too: one that would end past it is
                # not run, and the pair counts as not started (never judged half-run)
                took = time.monotonic() - start
                done = (run_one(_cut(after, deadline)) if time.monotonic() + took < deadline
                        else None)
        longest[0] = max(longest[0], time.monotonic() - start)
        return done

    return run_jobs(job, trials, at_once)


J = TypeVar("J")


def run_jobs(job: Callable[[Trial], J], trials: Sequence[Trial], at_once: int) -> list[J]:
    """`job(trial)` for every trial, in the order given, `at_once` at a time: where the job
    decides when the trial starts whether and how to run it (`scheduler.run_one`).
    Interrupted (Ctrl-C, SIGTERM), no trial not yet started starts, and the running ones are
    not waited for: the caller ends their commands (`workspace.end_commands`) and removes
    the run's root. (Leaving the pool by `with` waited for every running trial, a `sleep 60`
    for a whole minute, and then started the queued ones, which wrote into the root being
    removed.)"""
    pool = ThreadPoolExecutor(max_workers=max(1, min(at_once, len(trials))),
                              thread_name_prefix="gate-trial")
    try:
        done = [waiting.result(f) for f in [pool.submit(job, t) for t in trials]]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return done


def run(trials: Sequence[Trial], at_once: int = 1,
        starting: Callable[[int], None] | None = None) -> list[Outcome]:
    """Every trial's outcome, in the order given; `starting(i)` before the i-th (from 1) of
    trials run one after another (the progress: "run 2 of 3")."""
    if at_once <= 1 or len(trials) <= 1:
        out: list[Outcome] = []
        for i, trial in enumerate(trials, 1):
            if starting is not None:
                starting(i)
            out.append(run_one(trial))
            done = out[-1].run.completed
            if done.not_found or done.timed_out:
                break  # the command will not appear by itself, a hang would hang again
        return out
    return run_jobs(run_one, trials, at_once)
