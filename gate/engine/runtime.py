"""The runtime checks, as the list of trials a run needs, each a short call:

1. the install, on a fresh checkout of the head (`_install`);
2. the suite's runs of the selected tests (`_suite`; all of them, or a shard's share:
   `gate/trials/selection.py`), each in a checkout of its own, side by side under `parallel`,
   run 3 cut by test file across the cores (`_splitter`), base-tests' parts after them on the
   same cores;
3. the base's outcomes (one run of the base's suite on a fresh checkout of the base, or from
   the cache), compared with the head's: under `parallel` started beside the install
   (`sides.base_early`; under `--shard` beside the suite's runs, `sides.base_beside`), else
   after the runs;
4. base-tests (judged from its parts, and from run 3's pieces of the base's unchanged test
   files), pinned (its runs on the same scheduler: `gate/pinned/runs.py`) and the user checks;
5. the baseline of what failed."""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import time
from collections.abc import Callable, Iterator, Sequence

from gate.checks import base_tests, install, pinned, registry, suite, user
from gate.checks.harness import (
    evidence_kept,
    fingerprint,
    installed_packages,
    leftovers,
    loaded_plugins,
    runner_loaded,
    watched_code,
)
from gate.engine import background, redact, sides
from gate.engine.change import Change
from gate.engine.progress import Progress, timed
from gate.execution import (
    conditions,
    isolation,
    site_hooks,
    workspace,
)
from gate.execution.logs import Logs
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult, Finding
from gate.outcomes import base_commands, base_run, baseline, compare, detect, unread
from gate.outcomes.testrun import TestRun
from gate.pinned import step
from gate.shards import shares
from gate.trials import kinds, layer, pieces, scheduler, selection
from gate.trials import order as orders
from gate.trials.trial import Trial
from gate.vcs import git


@dataclasses.dataclass
class RuntimeResults:
    """The runtime checks' results by id (user checks by name), what the base's outcomes found:
    tests that passed at base and no longer run at head (for `tests-removed`) and tests that
    passed at base and are skipped at head (for `skip-markers`); and what the install left where
    the tests load it (for `harness`)."""
    checks: dict[str, CheckResult]
    not_run: tuple[Finding, ...] = ()
    skipped: tuple[Finding, ...] = ()
    left_behind: tuple[Finding, ...] = ()
    share: shares.Share | None = None  # under `--shard`: the runs and outcomes for the merge


def _user_checks(change: Change, ws: Workspace, progress: Progress,
                 results: dict[str, CheckResult]) -> None:
    for check in change.config.checks:
        results[check.name] = timed(check.name, progress, functools.partial(user.run, ws, check),
                                    title=user.title(check))


def _baseline(change: Change, ws: Workspace, progress: Progress,
              base: base_run.BaseOutcomes | None, results: dict[str, CheckResult]) -> None:
    """The required checks that failed on the head, classified against the base: the suite
    by the base's outcomes, the others by a run on the base."""
    cfg = change.config
    failing = {k: r for k, r in results.items() if baseline.needed(r)}
    if suite.ID in failing and base is not None:
        failed = failing.pop(suite.ID)
        results[suite.ID] = redact.check(
            baseline.classify_suite(failed, base.counts, base.passed) if base.installed
            else baseline.not_installed(failed, cfg.install or "the install"))
    if failing:
        for check_id in failing:
            progress.step(check_id, "failed: running it on the base to tell a regression "
                          "from a pre-existing failure")
        prefix, logs, boundary = ws.test_prefix, ws.logs, ws.boundary
        classified = baseline.run(
            change.repo, change.diff.base, failing,
            lambda checkout: cfg.install or detect.install_command(checkout),
            base_commands.test_command(change.repo, change.diff.base, cfg.test, ws.checkout),
            cfg.checks,
            lambda root, checkout: sides.fresh_workspace(change, root, checkout, prefix,
                                                         boundary, logs, trusted=True))
        results.update({k: redact.check(r) for k, r in classified.items()})


def _compared(change: Change, base: base_run.BaseOutcomes | None, runs: list[TestRun],
              results: dict[str, CheckResult]) -> compare.Comparison:
    """The head's first counted run against the base's outcomes; the suite's summary says
    how many tests no longer run."""
    head = next((r.counts for r in runs if r.counts is not None), None)
    if base is None or base.counts is None or head is None or (
            base.counts.runner != head.runner):
        return compare.Comparison()
    found = compare.compare(change.diff, base.counts, head)
    if found.note:
        ran = results[suite.ID]
        results[suite.ID] = dataclasses.replace(ran, summary=ran.summary + found.note)
    return found


def _side_by_side(change: Change, ws: Workspace, root: str) -> list[Workspace]:
    """A checkout per suite run (the first is the install's), sharing its environment."""
    return kinds.checkouts(change.repo, change.head, ws, root, change.config.runs)


def _install(change: Change, root: str, checkout: str, progress: Progress,
             boundary: isolation.Boundary, logs: Logs | None, beside: str | None = None,
             made: Callable[[], str | None] | None = None,
             ) -> tuple[Workspace, CheckResult, list[Finding], set[str]]:
    """The fresh environment (`made`: already being made) and the install; making the
    environment is part of its cost. Also what the install left where the tests load it
    (harness findings), and the environment's site hooks from before it. `beside`: the line
    of the work started beside it (the base's)."""
    cfg = change.config
    prefix = sides.prefix(change)
    progress.started(install.ID, install.TITLE)
    if beside is not None:
        progress.step(install.ID, beside)
    start = time.monotonic()
    progress.step(install.ID, "making a fresh environment")
    ws = sides.fresh_workspace(change, root, checkout, prefix, boundary, logs, made=made)
    hooks_before = site_hooks.present(ws.env)
    command = cfg.install or detect.install_command(checkout)
    if command:
        progress.step(install.ID, f"`{command}`")
    why = "" if cfg.install else detect.install_reason(checkout)
    installed = redact.check(install.run(ws, command, why))
    result = dataclasses.replace(installed, duration_s=time.monotonic() - start)
    progress.finished(result)
    left = (leftovers.in_checkout(checkout) + leftovers.in_environment(ws.env, hooks_before)
            + installed_packages.changed(checkout))
    # Every later command sees the install's checkout and environment as they are now,
    # through an overlay of its own (issue 22: every trial starts clean).
    return dataclasses.replace(ws, sealed=True), result, left, hooks_before


@contextlib.contextmanager
def installed_head(change: Change, progress: Progress, boundary: isolation.Boundary,
                   logs: Logs | None = None) -> Iterator[tuple[Workspace, CheckResult, str]]:
    """The head installed as `checks` installs it (fresh checkout and environment, in
    `boundary`), with the install's result and the run's root; all removed after. The hook
    of `gate run --quick` (gate/quick/)."""
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(change.repo, change.head, os.path.join(root, "checkout"))
        ws, installed, _, _ = _install(change, root, checkout, progress, boundary, logs)
        yield ws, installed, root
        boundary.verify()


def _suite(change: Change, ws: Workspace, root: str, chosen: selection.Selection,
           progress: Progress, base: sides.Beside, runs: list[TestRun],
           splitter: pieces.Splitter | None = None, beside: Sequence[Trial] = (),
           line: str | None = None) -> tuple[CheckResult, suite.Ran | None]:
    """The suite's runs of the selected tests, each in a checkout of its own (side by side
    under `parallel`: runs 3 and later cut in pieces by `splitter`, the `beside` trials
    after them on the same cores), kept in `runs`; the base's `line` said beside them or
    after them (None: said at the install, beside which the base's work started). Also what
    the runs gave (None: none ran)."""
    cfg = change.config
    tests_ws = chosen.workspace(ws)
    spaces = _side_by_side(change, tests_ws, root) if cfg.parallel and cfg.runs > 1 else []
    ran: list[suite.Ran] = []

    def fresh(name: str) -> Workspace:
        return kinds.fresh(change.repo, change.head, tests_ws, root, name)

    def run_suite() -> CheckResult:
        if cfg.parallel and line is not None:
            progress.step(suite.ID, line)
        if chosen.command is None:
            return chosen.nothing()
        done = suite.run_with_outcomes(
            tests_ws, chosen.command, cfg.runs, spaces, functools.partial(progress.step, suite.ID),
            orders.seed_of(change.head), fresh, splitter, beside if spaces else (),
            conditions.possible(tests_ws.boundary.bwrap is not None, tests_ws.boundary.overlays,
                                tests_ws.env, tests_ws.checkout)
            if cfg.varied_run and cfg.runs > 1 else conditions.USUAL)  # the last run's
        if chosen.found_nothing(done.runs):
            return chosen.nothing()
        runs.extend(done.runs)
        ran.append(done)
        return unread.said(chosen.said(done.result), done.runs, chosen.command, ws.checkout)

    try:
        result = timed(suite.ID, progress, run_suite)
    except BaseException:  # interrupted: end the base's run before the root goes
        workspace.end_commands(root)
        base.wait()
        raise
    if not cfg.parallel and line is not None:
        progress.step(suite.ID, line)
    return result, (ran[0] if ran else None)


def _splitter(change: Change, ws: Workspace, command: str,
              planned: base_tests.Planned | CheckResult | None) -> pieces.Splitter | None:
    """How the suite's runs 3 and later are cut in pieces across the cores (issue 26): of
    the base's unchanged test files where base-tests reads their outcomes from the pieces,
    else of the head's test files where the runs do not fill the cores evenly; None where
    they run whole (one after another, one core, a shard, no layer per command, not a
    pytest command that takes files)."""
    cfg, cores = change.config, scheduler.cores()
    if (not cfg.parallel or cfg.runs < suite.CUT_FROM or cores < 2 or change.shard is not None
            or not layer.usable(ws) or not pieces.takes_pieces(command, ws.checkout)):
        return None
    if isinstance(planned, base_tests.Planned) and planned.unchanged:
        return pieces.Splitter(planned.unchanged, cores)
    if cfg.runs % cores == 0:
        return None  # whole runs fill the cores already
    files = [p for p in git.ls_files(change.repo, change.head) if change.diff.is_test_file(p)]
    return pieces.Splitter(tuple(files), cores) if files else None


def _harness(change: Change, ws: Workspace, base: base_run.BaseOutcomes | None,
             runs: list[TestRun], left: list[Finding]) -> None:
    """The plugins and files only the head's runs loaded, against the base's (harness)."""
    counts = base.counts if base else None
    left.extend(loaded_plugins.compare(counts, [r.counts for r in runs], ws.checkout,
                                       git.ls_files(change.repo, change.head)))
    left.extend(fingerprint.compare(counts, [r.counts for r in runs], ws.checkout))
    left.extend(evidence_kept.compare(counts, [r.counts for r in runs]))
    left.extend(watched_code.compare(counts, [r.counts for r in runs],
                                     change.diff.is_test_file))
    left.extend(runner_loaded.compare(
        [r.counts for r in runs], {f.path for f in change.diff.files if f.status != "deleted"},
        change.diff.is_test_file))


def _tests(change: Change, ws: Workspace, root: str, command: str, progress: Progress,
           results: dict[str, CheckResult], left: list[Finding], started: sides.Beside | None,
           ) -> tuple[base_run.BaseOutcomes | None, compare.Comparison, shares.Share | None]:
    """The trials after the install, on the selected tests (all of them; under `--shard`,
    this shard's share, compared by `gate merge`): the suite's runs, the base's outcomes
    (`started`: beside the install; else beside the runs under `parallel`, or after
    them), base-tests, pinned, the user checks (under `--shard`, in shard 1 only)."""
    chosen = selection.of(change, ws, command)
    runs: list[TestRun] = []
    # Planned before the runs only where they cannot write the install's checkout (each
    # command in a layer of its own): else what a run writes under a test tree must be
    # seen, and removed for base-tests' run.
    early = (base_tests.plan(change.diff, ws, command)
             if chosen.runs_the_rest and layer.usable(ws) else None)
    splitter = _splitter(change, ws, command, early)
    beside = base_tests.parts(early, scheduler.cores(), reuse=splitter is not None) if (
        isinstance(early, base_tests.Planned)) else []
    line = None if started is not None else sides.base_line(
        change, "beside the suite's runs" if change.config.parallel else "after the suite's runs")
    background_base = started or sides.base_beside(change, root, ws, chosen)  # the base's outcomes
    results[suite.ID], ran = _suite(change, ws, root, chosen, progress, background_base, runs,
                                    splitter, beside, line)
    base = background_base.result()
    _harness(change, ws, base, runs, left)
    found = _compared(change, base, runs, results) if chosen.compares else compare.Comparison()
    if not chosen.runs_the_rest:
        _skipped_after_suite(change, "skipped: run by shard 1", results)
        return base, found, chosen.share(runs, base)
    planned = early or base_tests.plan(change.diff, ws, command)
    if results[suite.ID].status == "timeout":  # a hang costs one limit, the suite's
        planned = CheckResult(base_tests.ID, base_tests.TITLE, "skipped", False,
                              "skipped: the suite timed out (the head's code would hang "
                              "again)")
    results[base_tests.ID] = timed(
        base_tests.ID, progress, lambda: planned if isinstance(planned, CheckResult) else
        base_tests.judge(planned, ran.beside if ran is not None else None,
                         ran.passed_alone if ran is not None else frozenset(),
                         failing_at_base=_failing_at_base(base),
                         base_started=base is None or base.passed or base.counts is not None))
    results[pinned.ID] = step.check(change, ws, command, os.path.dirname(ws.scratch),
                                    results[suite.ID], progress, runs)
    _user_checks(change, ws, progress, results)
    return base, found, chosen.share(runs, base)


def _failing_at_base(base: base_run.BaseOutcomes | None) -> dict[str, str]:
    """The tests that failed in the base's own run, and how (`base_tests.failure_kind`)."""
    if base is None or base.counts is None:
        return {}
    return {c.name: base_tests.failure_kind(c.message) for c in base.counts.failures()}


def _skipped_after_suite(change: Change, why: str, results: dict[str, CheckResult]) -> None:
    """base-tests, pinned and the user checks, skipped for `why`."""
    results[base_tests.ID] = registry.skipped(base_tests.ID, why, required=False)
    results[pinned.ID] = registry.skipped(pinned.ID, why, required=False)
    results.update({c.name: user.skipped(c, why) for c in change.config.checks})


def checks(change: Change, progress: Progress, boundary: isolation.Boundary,
           logs: Logs | None = None) -> RuntimeResults:
    """The runtime checks, in one temporary root that is removed, with every process still
    running in it, when they end. Every command of the judged code runs in `boundary`; each
    command's full output goes to `logs`."""
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(change.repo, change.head, os.path.join(root, "checkout"))
        # The environment is made while the cache is looked up (it needs nothing of it).
        made = background.Background(functools.partial(
            sides.environment, root, checkout, sides.python_of(change.repo, change.diff.base)),
            "gate-environment")
        early: background.Background[base_run.BaseOutcomes | None] | None = None
        try:
            # The line first: once the base's work has started, the cache may fill.
            line = sides.base_line(change, "beside the install and the suite's runs")
            early = sides.base_early(change, root, boundary, logs)
            return _checked(change, progress, boundary, logs, root, checkout, early,
                            line if early is not None else None, made.result)
        except BaseException:  # interrupted: end the base's work before the root goes
            made.wait()
            if early is not None:
                workspace.end_commands(root)
                early.wait()
            raise


def _checked(change: Change, progress: Progress, boundary: isolation.Boundary,
             logs: Logs | None, root: str, checkout: str, early: sides.Beside | None,
             line: str | None, made: Callable[[], str | None]) -> RuntimeResults:
    """`checks` in its root, on the head's checkout, the base's outcomes started `early`,
    the environment being `made`."""
    cfg = change.config
    ws, installed, left, hooks_before = _install(change, root, checkout, progress, boundary,
                                                 logs, line, made)
    results = {install.ID: installed}
    base: base_run.BaseOutcomes | None = None
    found = compare.Comparison()
    share: shares.Share | None = None
    test_cmd = base_commands.test_command(change.repo, change.diff.base, cfg.test, checkout)
    if installed.status != "passed":
        why = "skipped: the install did not succeed"
        results[suite.ID] = registry.skipped(suite.ID, why)
        _skipped_after_suite(change, why, results)
    elif test_cmd is None:
        results[suite.ID] = suite.no_test_command()
        for optional in (base_tests.ID, pinned.ID):
            results[optional] = registry.skipped(optional, "skipped: no test command",
                                                 required=False)
        _user_checks(change, ws, progress, results)
    else:
        base, found, share = _tests(change, ws, root, test_cmd, progress, results, left,
                                    early)
        left.extend(leftovers.new_since_base(ws.env, hooks_before,
                                             base.site_hooks if base else None))
    if base is None and early is not None:  # not read: its outcomes go to the cache
        early.wait()
    _baseline(change, ws, progress, base, results)
    boundary.verify()  # after the last judged command: what it protects is still its own
    return RuntimeResults(results, found.not_run, found.skipped, tuple(left), share)
