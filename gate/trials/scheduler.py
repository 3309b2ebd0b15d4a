"""The one scheduler: runs trials over the machine's cores and gives each its outcome.

    outcomes = scheduler.run([trial, ...], at_once=scheduler.cores())  # in the trials' order

Each trial runs with a temporary directory of its own (TMPDIR; under isolation a file system
of its own per command), in its own checkout where it has one, its order applied through the
runner (`order.py`), and the files it puts over its checkout put back afterwards. `at_once`
trials run at the same time (1: one after another, in the given order); a trial that cannot
start (the command is not found) or hangs (cut at its time limit) stops the trials after it
when they run one after another."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from gate.execution.overlay import overlay
from gate.outcomes.testrun import run_tests
from gate.trials import order as orders
from gate.trials.trial import Outcome, Trial


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _tmp(trial: Trial) -> str:
    """The trial's own temporary directory, beside the run's other directories (the boundary
    makes the run root's directories the writable ones, and TMPDIR a tmpfs per command)."""
    path = os.path.join(os.path.dirname(trial.workspace.scratch), f"tmp-{trial.name}")
    os.makedirs(path, exist_ok=True)
    return path


def run_one(trial: Trial) -> Outcome:
    ws = trial.workspace
    applied = orders.apply(trial.order, trial.command, ws.checkout, ws.env)
    ws = dataclasses.replace(ws, env={**applied.env, "TMPDIR": _tmp(trial)})
    report = os.path.join(ws.scratch, f"{trial.name}.xml")
    with overlay(ws.checkout, trial.overlay_files):
        done = run_tests(ws, applied.command, report, extra_addopts=trial.extra_addopts,
                         log=ws.log(trial.name))
    return Outcome(trial, done, applied.order)


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
    with ThreadPoolExecutor(max_workers=min(at_once, len(trials)),
                            thread_name_prefix="gate-trial") as pool:
        return list(pool.map(run_one, trials))
