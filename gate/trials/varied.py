"""The varied run: the suite's last run (of two or more) under other conditions, those a real
machine might have and the gate's other runs do not (`gate/execution/conditions.py`: the
clock a year ahead, the checkout's files a month old, no memory limit, another host name);
and the tests whose outcome those conditions changed.

    trial = dataclasses.replace(trial, conditions=varied)   # where varied.is_varied(n, runs)
    named = varied.dependent(found, fresh, tell)    # {test: "the clock 365 days ahead"}

A test that failed in the varied run and passed in every other run is repeated in the same
order, each time in a fresh checkout, one after another (side by side, runs that interfere
with each other, over a shared file say, would pass for a matter of conditions): once under
the usual conditions, once under the varied ones and once under each condition alone. One
that passes under the usual ones is named with the conditions that fail it (all of them,
where it fails only when they come together); one that fails under the usual ones too, or
passes when repeated under the varied ones, is no matter of conditions, and is left to the
order and flakiness checks."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence

from gate.execution.conditions import USUAL, Conditions
from gate.execution.run_workspace import Workspace
from gate.models import Finding
from gate.trials import scheduler
from gate.trials.trial import Outcome

FreshSpace = Callable[[str], Workspace]
_CRASHES = (4, 6, 7, 8, 9, 11)  # SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGSEGV


def is_varied(n: int, runs: int) -> bool:
    """Whether run `n` (from 1) of `runs` is the varied one: the last, when there are others
    to compare it with."""
    return runs >= 2 and n == runs


def _signal(returncode: int | None) -> int:
    """The signal that ended a process (negative: itself; 128 + N: a shell's child), 0 where
    it exited."""
    if returncode is None or returncode == 0:
        return 0
    if returncode < 0:
        return -returncode
    return returncode - 128 if returncode - 128 in _CRASHES else 0


def spoiled(found: Sequence[Outcome], runs: int) -> str:
    """Why the varied run cannot judge the change ("" where it can): it hung or was killed by
    a signal before its runner or the gate's recorders said anything, while every usual run
    passed. Its conditions may have kept the toolchain from starting (a program that
    deadlocks under libfaketime beyond those `clock_probe` asks), which no change can be
    judged on; code that hangs only under them before any test looks the same, so a person
    decides (`spoiled_finding`). A run that got as far as a runner's report or a recorder's
    message is judged like any other: a test that hangs only under the varied conditions is
    named with them."""
    if len(found) != runs or not is_varied(runs, runs) or not found[-1].trial.conditions:
        return ""
    last, usual = found[-1], found[:-1]
    done = last.run.completed
    began = last.run.counts is not None or last.run.running is not None or last.run.heard
    if not all(o.run.passed for o in usual) or began:
        return ""
    if done.timed_out:
        how = f"timed out at {done.duration_s:.0f}s"
    elif signal := _signal(done.returncode):
        how = f"was killed by signal {signal}"
    else:
        return ""
    return (f"run {runs} (with {last.trial.conditions.describe()}) {how} before any test "
            f"ran, under the gate's own conditions: judged on the {runs - 1} usual runs")


# The file a finding about the whole run is pinned to: the first of these the checkout has.
_RUN_FILES = (".gate.toml", "pyproject.toml", "Cargo.toml", "package.json", "go.mod",
              "setup.py", "setup.cfg")


def spoiled_finding(said: str, checkout: str) -> Finding:
    """The varied run that could not judge, for a person: the usual runs passed."""
    path = next((f for f in _RUN_FILES if os.path.isfile(os.path.join(checkout, f))), ".")
    return Finding(path, 1, "varied-run-hung",
                   f"{said}. A toolchain that deadlocks under the moved clock does this on "
                   "every change; code that hangs only under these conditions, before any "
                   "test, looks the same: check the change, or set `varied-run = false` for "
                   "a toolchain that cannot run them")


@dataclasses.dataclass(frozen=True)
class Aside:
    """The runs that judge the suite, how many were asked for, the varied conditions they are
    judged under, what the summary adds about the varied run, and its finding."""
    found: list[Outcome]
    runs: int
    varied: Conditions
    note: str = ""
    findings: tuple[Finding, ...] = ()


def set_aside(found: Sequence[Outcome], runs: int, varied: Conditions, checkout: str) -> Aside:
    """The varied run set aside where it could not judge (`spoiled`: the usual runs decide,
    and a person looks); else every run, and the clock said where it could not be moved."""
    said = spoiled(found, runs)
    if said:
        return Aside(list(found[:-1]), runs - 1, USUAL, f"; {said}",
                     (spoiled_finding(said, checkout),))
    unmoved = (f"; the varied run's clock was not moved: {varied.unmoved}"
               if varied.unmoved and is_varied(runs, runs) else "")
    return Aside(list(found), runs, varied, unmoved)


def _passed(outcome: Outcome) -> set[str]:
    counts = outcome.run.counts
    return {c.name for c in counts.cases if c.outcome == "passed"} if counts else set()


def _failed(outcome: Outcome) -> set[str]:
    return {c.name for c in outcome.run.failed_tests}


def dependent(found: Sequence[Outcome], fresh: FreshSpace | None,
              tell: Callable[[str], None]) -> dict[str, str]:
    """The tests that failed in the varied run only and pass again under the usual
    conditions, each with the conditions that fail it ("the clock 365 days ahead")."""
    varied = [o for o in found if o.trial.conditions]
    others = [o for o in found if not o.trial.conditions]
    if not varied or not others or fresh is None:
        return {}
    last = varied[-1]
    suspects = sorted(n for n in _failed(last) if all(n in _passed(o) for o in others))
    if not suspects:
        return {}
    full = last.trial.conditions
    singles = [c for c in full.singles() if c != full]
    each: list[Conditions] = [USUAL, full, *singles]
    again = [dataclasses.replace(last.trial, name=f"suite-conditions-{i}", conditions=c,
                                 workspace=fresh(f"checkout-conditions-{i}"))
             for i, c in enumerate(each)]
    tell(f"repeating run {len(found)} under each of its conditions: a test failed there only")
    repeated = scheduler.run(again)  # one after another: see the module's docstring
    if not repeated:
        return {}
    out: dict[str, str] = {}
    for name in suspects:
        if name not in _passed(repeated[0]):
            continue  # fails (or did not run) under the usual conditions too
        failing = [c for c, o in zip(each[1:], repeated[1:], strict=False)
                   if name in _failed(o)]
        by = [c.describe() for c in failing if c in singles]
        if by or (len(each) == 2 and failing):  # one condition: it alone
            out[name] = ", ".join(by) or full.describe()
        elif failing:  # again under all of them, under none alone
            out[name] = f"{full.describe()} together"
        # else: it passed when repeated under them: flaky, not theirs
    return out
