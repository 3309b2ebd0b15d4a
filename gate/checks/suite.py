"""suite: the whole suite passes N runs out of N; a test that fails in some runs is flaky."""
from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence

from gate.execution.conditions import USUAL, Conditions
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult, Finding, Status, TestCounts
from gate.outcomes import baseline, detail, witnesses
from gate.outcomes.record import CaseResult
from gate.outcomes.testrun import TestRun
from gate.trials import order as orders
from gate.trials import pieces, scheduler
from gate.trials import varied as varieds
from gate.trials.order import Order
from gate.trials.trial import Outcome, Trial

ID = "suite"
TITLE = "The whole suite passes every run"
EXPLANATION = """\
Runs the test command N times (default 3) on fresh checkouts of the head, side by side unless
`parallel = false`: run 1 in the suite's own order, run 2 reversed, the others shuffled with a
seed from the head, where the runner allows it (pytest through the gate's plugin, Jest, Vitest,
go test); when every run passes, the summary lists the orders and the seed ("orders: project,
reversed, shuffled seed 1234"), so they can be run again. A test that fails in every run is a
failure; a test that fails in some runs and passes in others is flaky, and is named with its
file, line and pattern ("passed 1 of 3"); one that fails in one order and passes in another,
again when both are repeated in fresh checkouts one after another, is named order-dependent, with
both orders.
The last run (of two or more) is made under other conditions, those a real machine might have
and the gate's other runs do not: the clock a year ahead, the checkout's files a month old
(said with the run where it fails; `varied-run = false` turns it off). A test that fails there
only, again when repeated under those conditions and not without them, is named with the
condition that fails it: a time bomb, code right only while its file is new, or an honest test
that a date or a file's age will break; one that hangs before anything is said while the usual
runs pass cannot judge (the usual runs decide; `varied-run-hung` asks a person). Nothing else
tells any run from the CI runner's own (docs/isolation.md).
Side by side, with pytest and two cores or more, run 3 (and later runs) is cut
by test file across the cores, each piece in a file system of its own: runs 1 and 2 stay whole,
so that a test file the head adds meets the others in one session in two orders. A cut run
counts only if its pieces passed having run exactly run 1's tests; otherwise it is made again
whole, which decides. Retries never make a failing test green: every run must pass. Per-test
outcomes come from the gate's own witnesses, sent as the tests ran (pytest's session plugin,
the Node preload for Jest, Vitest and Mocha, Go's `testing` overlaid; docs/how-it-works.md has
the table); unittest, node:test, uvu and cargo test are read from their output, and the summary
says no witness decided them. The exit status must agree with the runner's counts: a run that
exits 0 with failures, or having run no test, does not pass.

Resolve: fix the failing test or the code under it; make a flaky test deterministic
(fixed seeds, no shared state, no real time or network); give an order-dependent test the
state it needs itself (a fixture), and undo what a test changes; make a test that fails under
other conditions independent of them (a fixed date or a frozen clock in the test, not in the
code)."""


FLAKY = baseline.FLAKY_SAID  # how a flaky test's finding starts
ORDER_DEPENDENT = baseline.ORDER_SAID  # how an order-dependent test's finding starts
CONDITIONS = baseline.CONDITIONS_SAID  # how a test the varied run changed starts
# The first run cut in pieces by test file (side by side): runs 1 (the project's order) and 2
# (reversed) stay whole, so that a test file the head adds still meets the others in one
# session, in two orders (a new test that leaves state behind breaks an existing one).
CUT_FROM = 3
FreshSpace = Callable[[str], Workspace]  # a new checkout of the head, by name, its env shared


def _in(orders: Sequence[Order], n: int, varied: Conditions = USUAL, runs: int = 0) -> str:
    """' (reversed order)' for run `n` when it ran in another order than the project's, and
    the conditions it ran under when it was the varied run."""
    said = [str(orders[n - 1])] if n <= len(orders) and orders[n - 1].kind != "project" else []
    if varied and varieds.is_varied(n, runs):
        said.append(f"with {varied.describe()}")
    return f" ({'; '.join(said)})" if said else ""


def _findings(runs: list[TestRun],
              order_dependent: Mapping[str, tuple[Order, Order]],
              changed: Mapping[str, str] | None = None) -> list[Finding]:
    failures: dict[str, list[CaseResult]] = defaultdict(list)
    counted = [r.counts for r in runs if r.counts is not None]
    for counts in counted:
        for test in counts.failures():
            failures[test.name].append(test)
    seen: dict[str, int] = defaultdict(int)
    for counts in counted:
        names = {c.name for c in counts.cases}
        for name in failures:
            # A runner that names only its failures passed a test it did not name.
            if name in names or not counts.complete:
                seen[name] += 1
    findings = []
    n = len(runs)
    for name, failed in sorted(failures.items()):
        first = next((t for t in failed if t.line), failed[0])
        k = len(failed)
        if name in (changed or {}):
            message = (f"{CONDITIONS} {name} fails with {(changed or {})[name]} and passes "
                       f"under the usual conditions (failed in {k} of {n} runs): code or a "
                       "test that is right only under the gate's own conditions, or a date, "
                       "a file's age or a limit that will break it on a real machine")
        elif name in order_dependent:
            bad, good = order_dependent[name]
            message = (f"{ORDER_DEPENDENT} {name} fails in {bad} and passes in {good}, also "
                       f"when both are repeated in fresh checkouts (failed in {k} of "
                       f"{seen[name]} runs)")
        elif k < seen[name]:
            message = (f"{FLAKY} {name} failed in {k} of {seen[name]} runs "
                       f"(passed {seen[name] - k} of {seen[name]})")
        else:
            message = f"{name} failed in {k} of {n} runs"
        if first.message:
            message += f": {first.message.splitlines()[0][:200]}"
        findings.append(Finding(first.file or ".", first.line or 1, "test-failed",
                                message, severity="error"))
    return findings


def _counts(runs: list[TestRun], findings: list[Finding]) -> TestCounts | None:
    """The tests over the N runs; a test that failed is counted once, failed or flaky."""
    counted = [r.counts for r in runs if r.counts is not None]
    if not counted:
        return None
    flaky = sum(f.message.startswith((FLAKY, ORDER_DEPENDENT)) for f in findings)
    failed = len(findings) - flaky
    most = max(c.ran for c in counted)
    return TestCounts(passed=max(most - failed - flaky, 0), failed=failed, flaky=flaky,
                      skipped=max(c.skipped for c in counted))


def _status(runs: list[TestRun]) -> Status:
    if all(r.passed for r in runs):
        return "passed"
    if any(r.completed.not_found for r in runs):
        return "error"
    if all(r.completed.timed_out for r in runs if not r.passed):
        return "timeout"
    return "failed"


def _trials(spaces: Sequence[Workspace], command: str, runs: int, seed: int,
            name: str, varied: Conditions = USUAL) -> list[Trial]:
    """Run i in `spaces[i - 1]` (or all in the one space given), run 1 in the project's order
    and the others in other orders, the last under the `varied` conditions."""
    return [Trial(f"{name}-{i}", spaces[min(i, len(spaces)) - 1], command,
                  order=orders.for_run(i, seed),
                  conditions=varied if varieds.is_varied(i, runs) else USUAL)
            for i in range(1, runs + 1)]


def _order_dependent(found: Sequence[Outcome], fresh: FreshSpace | None,
                     tell: Callable[[str], None], known: Collection[str] = (),
                     ) -> dict[str, tuple[Order, Order]]:
    """The tests that failed in a run in one order and passed in a run in another, and do so
    again when both orders are repeated, each in a fresh checkout and one after another
    (state a run left in its checkout, runs that interfere side by side or an unlucky moment
    is then no cause): each with the order that fails it and one that passes it. Others stay
    flaky."""
    passed: dict[str, set[Order]] = defaultdict(set)
    failed: dict[str, set[Order]] = defaultdict(set)
    for outcome in found:
        for case in (outcome.run.counts.cases if outcome.run.counts else ()):
            if case.outcome == "passed":
                passed[case.name].add(outcome.order)
            elif case.outcome == "failed":
                failed[case.name].add(outcome.order)
    suspects = {n: fs - passed[n] for n, fs in failed.items()
                if passed[n] and fs - passed[n] and n not in known}
    if fresh is None or not suspects:
        return {}
    wanted = {o for fs in suspects.values() for o in fs} | {
        min(passed[n], key=lambda o: [x.order for x in found].index(o)) for n in suspects}
    by_order = {o.order: o.trial for o in found}
    again = [dataclasses.replace(by_order[o], name=f"suite-order-{i}",
                                 workspace=fresh(f"checkout-order-{i}"), conditions=USUAL)
             for i, o in enumerate(sorted(wanted, key=[x.order for x in found].index), 1)]
    tell(f"repeating {len(again)} run(s) in fresh checkouts: a test failed in one order only")
    repeated = scheduler.run(again)
    fails = {o.order: {c.name for c in o.run.failed_tests} for o in repeated}
    passes = {o.order: {c.name for c in (o.run.counts.cases if o.run.counts else ())
                        if c.outcome == "passed"} for o in repeated}
    out: dict[str, tuple[Order, Order]] = {}
    for name, orders_failed in suspects.items():
        bad = next((o for o in fails if o in orders_failed and name in fails[o]), None)
        good = next((o for o in passes if o in passed[name] and name in passes[o]), None)
        if bad is not None and good is not None:
            out[name] = (bad, good)
    return out


def nothing_to_run(shard: object, how: str) -> CheckResult:
    """A shard that no test fell to (more shards than test files, say)."""
    return CheckResult(ID, TITLE, "passed", True,
                       f"no test falls to shard {shard} ({how})")


def _silent(text: str) -> None:
    pass


@dataclasses.dataclass(frozen=True)
class Ran:
    """The suite's result and the runs that decided it; the outcomes of the other trials run
    among them (`beside`, in the order given; None: they were not run); the test files that
    passed in a piece of a split run of their own (`pieces.Cut.passed_chunks`)."""
    result: CheckResult
    runs: list[TestRun]
    beside: tuple[Outcome, ...] | None = None
    passed_alone: frozenset[str] = frozenset()


def run(ws: Workspace, command: str, runs: int, side_by_side: Sequence[Workspace] = (),
        tell: Callable[[str], None] = _silent, seed: int = 1,
        fresh: FreshSpace | None = None, varied: Conditions = USUAL) -> CheckResult:
    return run_with_outcomes(ws, command, runs, side_by_side, tell, seed, fresh,
                             varied=varied).result


def _together(trials: Sequence[Trial], splitter: pieces.Splitter | None,
              beside: Sequence[Trial], at_once: int,
              ) -> tuple[list[Outcome], tuple[Outcome, ...] | None, frozenset[str]]:
    """The runs side by side, runs 3 and later cut in pieces by `splitter` where it can, with
    the `beside` trials after them on the same cores: each run's outcome (a cut run's joined,
    or run whole again where its pieces did not pass or did not run run 1's tests), the
    beside trials' outcomes, and the files that passed in a piece of their own. A hang
    costs one limit: once a run times out, nothing more starts (the runs, pieces or beside
    trials still queued; None for the beside ones) and nothing is made again; the runs that
    were made decide."""
    cuts = [splitter.cut(t) if splitter is not None and i >= CUT_FROM - 1 else None
            for i, t in enumerate(trials)]
    groups = [list(c.trials) if c is not None else [t] for t, c in zip(trials, cuts, strict=True)]
    if any(cuts) and splitter is not None:
        at_once = max(2, splitter.parts)  # never one after another: that stops at a hang
    rests = {c.rest.name: c for c in cuts if c is not None}
    ended: list[Outcome] = []  # run 1's, once it has ended (run 1 is never cut)
    hung: list[Outcome] = []  # a run that timed out: the one limit is spent

    def job(trial: Trial) -> Outcome | None:
        if hung:
            return None  # not started after a hang: it would hang again, a limit more
        cut = rests.get(trial.name)
        if cut is not None and not cut.needs_rest(ended[0].run if ended else None):
            return None  # it would collect nothing
        outcome = scheduler.run_one(trial)
        if trial is trials[0]:
            ended.append(outcome)
        if outcome.run.completed.timed_out:
            hung.append(outcome)
        return outcome

    done = scheduler.run_jobs(job, [*(p for g in groups for p in g), *beside], at_once)
    if hung:  # the runs that were made decide (a cut run by its piece that hung); nothing
        # made again, nothing beside
        made = [o for mine in _by_group(done, groups)
                for o in ([m for m in mine if m is not None] if len(mine) == 1 else
                          [m for m in mine if m is not None and m.run.completed.timed_out][:1])]
        return made, None, frozenset()
    found: list[Outcome] = []
    alone: set[str] = set()
    first = _ran(done[0]).run
    for cut, group in zip(cuts, groups, strict=True):
        mine, done = done[:len(group)], done[len(group):]
        if cut is not None:
            alone |= cut.passed_chunks(mine, first)
        found.append(cut.joined(mine) if cut is not None else _ran(mine[0]))
    # A cut run decides only when it passed with run 1's tests: else it is made again whole
    # (a test that needs another file's session, or a collection the gate misread, is no
    # failure of the run).
    again = [i for i, c in enumerate(cuts) if c is not None and not (
        found[i].run.passed and pieces.same_tests(found[i].run, first))]
    rerun = scheduler.run([trials[i] for i in again], at_once=at_once) if again else []
    for i, outcome in zip(again, rerun, strict=True):
        found[i] = outcome
    return found, tuple(map(_ran, done)), frozenset(alone)


def _by_group(done: Sequence[Outcome | None], groups: Sequence[Sequence[Trial]],
              ) -> list[list[Outcome | None]]:
    """The outcomes of each run's trials (a whole run's one, a cut run's pieces)."""
    out, at = [], 0
    for group in groups:
        out.append(list(done[at:at + len(group)]))
        at += len(group)
    return out


def _ran(outcome: Outcome | None) -> Outcome:
    """A trial's outcome that is always made (only a cut run's rest may not be)."""
    assert outcome is not None, "only a rest piece is left out"
    return outcome


def run_with_outcomes(ws: Workspace, command: str, runs: int,
                      side_by_side: Sequence[Workspace] = (),
                      tell: Callable[[str], None] = _silent,
                      seed: int = 1, fresh: FreshSpace | None = None,
                      splitter: pieces.Splitter | None = None,
                      beside: Sequence[Trial] = (), varied: Conditions = USUAL) -> Ran:
    """N runs as trials (run 1 in the project's order, the others reversed or shuffled from
    `seed` where the runner allows), one after another, or side by side in the
    `side_by_side` checkouts (then runs 3 and later cut in pieces by `splitter` where it
    can, and the `beside` trials run after them on the same cores; one after another, the
    `beside` trials are not run); and the runs that decided. Runs side by side of which some
    pass and some do not are run again one after another, which decide: when those pass, the
    tests interfere with each other (a fixed port, a file written in a shared place) and
    the summary says so.
    A test that fails in one order and passes in another is repeated in both, each in a fresh
    checkout (`fresh`, by name; None: not repeated): doing so again, it is named
    order-dependent. The last run (of two or more) is made under the `varied` conditions
    (`gate/trials/varied.py`): a test that fails there only, and again under them but not
    without them, is named with the conditions that fail it."""
    start = time.monotonic()
    note = ""
    others: tuple[Outcome, ...] | None = None
    alone: frozenset[str] = frozenset()
    changed: dict[str, str] = {}
    asked = False  # whether the varied run's conditions were repeated (once at most)
    if side_by_side:
        tell(f"{len(side_by_side)} runs side by side")
        found, others, alone = _together(
            _trials(side_by_side, command, runs, seed, "suite-side-by-side", varied), splitter,
            beside, len(side_by_side))
        hung = any(o.run.completed.timed_out or o.run.completed.not_found for o in found)
        together = sum(o.run.passed for o in found)
        # Some passed and some did not: interference or a flaky test, which runs one after
        # another tell apart. None passed: the same failure in every run (a hang would hang
        # again), and running them all once more would only double the cost of a failure.
        # Only the varied run failed: its conditions are the suspect, and their repeats
        # (`varieds.dependent`) decide; where they do not explain it (it passes when repeated
        # under them too), the runs are run again one after another like any other.
        only_varied = all(o.run.passed for o in found if not o.trial.conditions)
        mixed = not hung and 0 < together < len(found)
        asked = mixed and only_varied
        if asked:
            changed = varieds.dependent(found, fresh, tell)
        if mixed and not changed:
            tell("again one after another")
            found = scheduler.run(_trials([ws], command, runs, seed, "suite-run", varied),
                                  starting=lambda i: tell(f"run {i} of {runs}"))
            note = f"; side by side {together} of {len(side_by_side)} passed"
            if all(o.run.passed for o in found):
                note += (": the runs interfere with each other (fixed ports, shared files?);"
                         " set parallel = false")
    else:
        found = scheduler.run(_trials([ws], command, runs, seed, "suite-run", varied),
                              starting=lambda i: tell(f"run {i} of {runs}"))
    aside = varieds.set_aside(found, runs, varied, ws.checkout)
    found, varied, note = aside.found, aside.varied, note + aside.note
    if not asked:  # of the runs that decide (once: the repeats' checkouts have one name each)
        changed = varieds.dependent(found, fresh, tell)
    dependent = _order_dependent(found, fresh, tell, known=changed)
    results = [o.run for o in found]
    result = judge(results, aside.runs, note, duration_s=time.monotonic() - start,  # wall
                   orders=[o.order for o in found], order_dependent=dependent,
                   varied=varied, changed=changed)
    return Ran(dataclasses.replace(result, findings=(*result.findings, *aside.findings)),
               results, others, alone)


def judge(results: Sequence[TestRun], runs: int, note: str = "", *,
          duration_s: float = 0.0, orders: Sequence[Order] = (),
          order_dependent: Mapping[str, tuple[Order, Order]] | None = None,
          varied: Conditions = USUAL, changed: Mapping[str, str] | None = None) -> CheckResult:
    """The check's result from its runs (also the union of shards' runs, in `gate merge`):
    `orders` are the runs' orders (said for a run that did not pass in another order than the
    project's; listed, seeds included, when every run passed), `order_dependent` the tests
    named so, with an order that fails them and one that passes them; `varied` the last
    run's conditions (said with it), `changed` the tests they changed, with the conditions
    that fail them."""
    passed = sum(r.passed for r in results)
    worst = next((r for r in results if not r.passed), results[-1])
    summary = f"{passed} of {runs} runs passed"
    if worst.counts is not None:
        summary += f", {worst.counts.describe()}"
    # the varied run's conditions, where they may be why it failed: a usual run passed
    if not any(r.passed for i, r in enumerate(results, 1) if not varieds.is_varied(i, runs)):
        varied = USUAL
    bad = [f"run {i}{_in(orders, i, varied, runs)}: {r.problem()}"
           for i, r in enumerate(results, 1) if not r.passed]
    if len(results) < runs and results[-1].completed.timed_out:
        bad.append("no more runs made: a run that hangs would hang again")
    if bad:
        summary += " (" + "; ".join(bad) + ")"
    elif any(o.kind != "project" for o in orders):  # how to run them again
        summary += " (orders: " + ", ".join(o.short for o in orders) + ")"
    summary += note + witnesses.note(worst.counts)
    text = "" if worst.passed else detail.excerpt(worst.failed_tests, worst.completed.output)
    findings = _findings(list(results), order_dependent or {}, changed)
    return CheckResult(ID, TITLE, _status(list(results)), True, summary, detail=text,
                       findings=tuple(findings), duration_s=duration_s,
                       tests=_counts(list(results), findings))


def no_test_command() -> CheckResult:
    """The suite's result where neither the config nor the project names a test command."""
    return CheckResult(ID, TITLE, "error", True,
                       "no test command found: pass --test CMD or set `test` in [tool.gate]")
