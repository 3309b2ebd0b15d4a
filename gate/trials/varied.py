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
from collections.abc import Callable, Sequence

from gate.execution.conditions import USUAL, Conditions
from gate.execution.run_workspace import Workspace
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
    """Why the varied run is the gate's own failure and not the change's ("" where it is
    not): it hung or was killed by a signal before its runner reported anything, while every
    usual run passed. Its conditions kept the toolchain from starting (a program that
    deadlocks under libfaketime beyond those `clock_probe` asks), which no change can be
    judged on. A run that got as far as a test runner's report is judged like any other:
    a test that hangs or crashes only under the varied conditions is named with them."""
    if len(found) != runs or not is_varied(runs, runs) or not found[-1].trial.conditions:
        return ""
    last, usual = found[-1], found[:-1]
    done = last.run.completed
    if not all(o.run.passed for o in usual) or last.run.counts is not None:
        return ""
    if done.timed_out:
        how = f"timed out at {done.duration_s:.0f}s"
    elif signal := _signal(done.returncode):
        how = f"was killed by signal {signal}"
    else:
        return ""
    return (f"run {runs} (with {last.trial.conditions.describe()}) {how} before any test "
            "ran, under the gate's own conditions, not the change's doing: judged on the "
            f"{runs - 1} usual runs")


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
