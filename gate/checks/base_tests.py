"""base-tests: the base branch's test files, put back over the head code, still pass."""
from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping, Sequence

from gate.checks import base_tree, common, dropped_deps
from gate.engine.context import DiffContext
from gate.execution import judged_files
from gate.execution.run_workspace import Workspace
from gate.lang import testdefs
from gate.lang.languages import JAVASCRIPT_FAMILY
from gate.models import CheckResult, Finding, Status
from gate.outcomes import detail, junit, scoped_command
from gate.outcomes.record import CaseResult
from gate.outcomes.testrun import TestRun
from gate.trials import layer, scheduler
from gate.trials.trial import Outcome, Trial

ID = "base-tests"
TITLE = "The base's tests still pass on the head code"
EXPLANATION = """\
Puts the base's whole test tree back over the head checkout wherever the change touched it: test
files, data, fixtures, snapshots, helpers, __init__.py, conftest.py, the pytest configuration
and JavaScript runner configs; what the head added there, and what the install left there, is
removed for the run. In Rust, the base's `#[cfg(test)]` modules are put back into the head's
source files; in Go, the base's `*_test.go` files; where the base collects doctests
(`--doctest-modules`, `doctest` in the test command), the base's docstring examples into the
head's Python sources that changed them. The package's own test helpers are test code: a module
of the package the base's tests load as a pytest plugin (`pytest_plugins` in a conftest, `-p` in
addopts, a `pytest11` entry point) or take fixtures from (a conftest's import of a module that
defines fixtures or hooks) is put back from the base where the change touched it, and every base
test that loads it runs. Then it runs the base's tests once more: every base test of a test tree
the change touched, added files included (a test file the head only adds can patch the code for
every test), and of the directory of a changed test file outside any tree, when the runner takes
paths (pytest, Jest, Vitest, Mocha, node:test, cargo's integration tests, go test); else the
whole test command. With two cores or more, the files are split across them (each part over a
layer of its own), beside the suite's runs; a part that does not pass, as a runner that takes no
paths, leaves the decision to the whole unsplit run. Where the change put back nothing but test
files (no helper, datum, conftest or configuration differs) and the suite's run 3 was cut in
pieces, a base test file the head has unchanged is read from the piece that ran it alone over
the head code (the same file, code and support files: the same run), if that piece passed with
every test the whole run ran in it; only the base's versions of the files the head changed or
removed run again. Where the base's own run ran no test (its plugin does not load with the
pytest of the day) and the base's tests run none over the head code either, there is nothing to
compare: no finding. A base test file that cannot be collected in the base's own run either (the
pytest of the day rejects it), and stops the run over the head code, is left out and the others
run again without it (where the runner takes paths): the summary names it. Where the change
edited that file, nothing of the base's judges the edit: that is a finding
(`base-cannot-judge`), for a person to read. A failure means the
change altered behaviour that an existing test pinned down: either the intended fix of a bug, or
a regression hidden by editing that test. A person decides. Where the base's files could not be
collected because they import a module the head's install no longer brings (the change dropped
it from pyproject.toml's dependencies, extras or groups), the finding says that, at the
manifest's line (`test-dependency-dropped`): a dependency the tests needed is gone, and the
base's tests could not run over the head code.

Resolve: if the behaviour change is intended, say so in the pull request and have a reviewer
approve it; otherwise restore the behaviour the base test expects."""

BASE_INI = ".gate-base-pytest.ini"


def _finding(name: str, file: str | None, line: int | None, message: str) -> Finding:
    text = (f"the base version of {name} fails on the head code: the change altered behaviour "
            "this test pinned down (a bug fix, or a regression hidden by editing the test)")
    if message:
        text += f": {message.splitlines()[0][:200]}"
    return Finding(file or ".", line or 1, "base-test-failed", text, severity="warning")


def _unjudged(edited: Sequence[str]) -> list[Finding]:
    """The test files the change edited whose base version cannot be collected: nothing of
    the base's judges the edit (issue 48: never judged by nothing)."""
    return [Finding(path, 1, "base-cannot-judge", (
        f"the change edits {path}, whose base version cannot be collected (in the base's own "
        "run either): no test of the base judges this edit; a person must read it"),
        severity="warning") for path in edited]


def pin(case: CaseResult, base_files: Mapping[str, bytes | None],
            to_run: list[str]) -> CaseResult:
    """A failing test the runner gave no file for (Mocha, Jest and others name only the
    test), pinned to its definition in the base test files that ran, by its title."""
    if case.file is not None:
        return case
    for path in to_run:
        content = base_files.get(path)
        if content is None:
            continue
        defs = testdefs.extract(path, content.decode("utf-8", "replace")).defs
        found = next((d for d in defs if d.name == case.name), None) or next(
            (d for d in defs if case.name.endswith(" > " + d.name)), None)
        if found is not None:
            return dataclasses.replace(case, file=path, line=found.line)
    return dataclasses.replace(case, file=to_run[0]) if len(to_run) == 1 else case


def _names(paths: list[str], limit: int = 5) -> str:
    return common.listed(paths, limit)


_READ = {".py", ".go", ".rs", ".java", ".kt", ".rb", *JAVASCRIPT_FAMILY}


def _defining(paths: list[str], files: Mapping[str, bytes | None], checkout: str) -> list[str]:
    """The files that define a test, as the gate reads their language: a helper under test/
    (uvu's, tap's) defines none and is not named as a test. A file it cannot read, or whose
    language it does not read, is named."""
    named = []
    for path in paths:
        blob = files.get(path)
        if blob is None:
            blob = judged_files.read(os.path.join(checkout, path), follow=False)
        found = testdefs.extract(path, (blob or b"").decode("utf-8", "replace"))
        if (os.path.splitext(path)[1].lower() not in _READ or blob is None or found.defs
                or found.error):
            named.append(path)
    return named


def _failed_summary(failed: list[CaseResult]) -> str:
    """How many of the base's tests fail and which; a module that no longer imports is said
    as that (loguru 3fb23a4: a private name the base's test imported is gone), not a test."""
    tests, unimported = junit.split_failed(failed)
    said = [f"{len(tests)} test(s) fail on the head code ({_names(tests, 3)})"] if tests else []
    if unimported:
        said.append(f"{_names(unimported, 3)} cannot be collected on the head code")
    return "; ".join(said)


@dataclasses.dataclass(frozen=True)
class Planned:
    """What base-tests runs: the whole run (`trial`: the base's files over the head's
    checkout, the narrowed command where the runner takes paths), the base test files it
    runs, and of those the ones the head has unchanged where nothing else it puts back
    differs (`unchanged`: then their outcomes are the suite's, from a piece of a split run
    that ran them alone; empty where anything but test files is put back)."""
    trial: Trial
    command: str  # the test command the narrowed ones are made from
    files: dict[str, bytes | None]
    to_run: list[str]
    what: str
    narrowed: bool
    unchanged: tuple[str, ...] = ()
    dropped: tuple[dropped_deps.Dropped, ...] = ()  # requirements the head's manifest dropped

    def own(self) -> list[str]:
        """The base test files that differ from the head's: the ones base-tests must run."""
        return [p for p in self.to_run if p not in self.unchanged]


def plan(ctx: DiffContext, ws: Workspace, command: str) -> Planned | CheckResult:
    """What base-tests runs; a result where it has nothing to run."""
    tree = base_tree.plan(ctx, ws.checkout, command)
    files, to_run = dict(tree.files), tree.to_run
    base_cfg = ctx.pytest_config(ctx.base)
    config_changed = base_cfg != ctx.pytest_config(ctx.head)
    if not to_run and not tree.configs_changed and not config_changed:
        why = "no base test file changed" if files else "no test file changed"
        return CheckResult(ID, TITLE, "passed", False, why)
    only_tests = not tree.configs_changed and not config_changed and all(
        ctx.is_test_file(p) and p.endswith(".py") for p in [*files, *to_run])
    extra: list[str] = []
    if base_cfg.path is not None or config_changed:
        files[BASE_INI] = base_cfg.to_ini().encode()
        extra = ["-c", os.path.join(ws.checkout, BASE_INI), "--rootdir", ws.checkout]
    narrowed = scoped_command.narrowed(command, to_run, ws.checkout)
    trial = Trial(ID, ws, narrowed or command, tests="base", overlay_files=files,
                  extra_addopts=tuple(extra))
    named = _defining(to_run, files, ws.checkout)
    what = (f"{len(to_run)} base test file(s) ({_names(named)})" if narrowed else
            "the suite with the base's tests" + (f" ({_names(named)})" if named else ""))
    unchanged = tuple(p for p in to_run if p not in files) if narrowed and only_tests else ()
    dropped = dropped_deps.dropped(ctx.text(ctx.base, dropped_deps.MANIFEST),
                                   ctx.text(ctx.head, dropped_deps.MANIFEST)) if any(
        f.path == dropped_deps.MANIFEST for f in ctx.files) else ()
    return Planned(trial, command, files, to_run, what, narrowed is not None, unchanged,
                   dropped)


def parts(planned: Planned, at_once: int, reuse: bool = False) -> list[Trial]:
    """The trials base-tests may decide by, run beside others: with `reuse` (the suite's
    runs are cut in pieces of `planned.unchanged`), one run of the files that differ (none
    when none does); else the files split into `at_once` parts, each in a layer of its own
    over the install's checkout (none where they cannot be split: one core, one file, no
    layer, a runner that takes no paths)."""
    trial, ws = planned.trial, planned.trial.workspace
    if not planned.narrowed or not layer.usable(ws):
        return []
    if reuse and planned.unchanged:
        own = scoped_command.narrowed(planned.command, planned.own(), ws.checkout)
        return [dataclasses.replace(trial, name=f"{ID}-own", command=own)] if own else []
    n = min(at_once, len(planned.to_run))
    if n < 2:
        return []
    found = [scoped_command.narrowed(planned.command, planned.to_run[i::n], ws.checkout)
             for i in range(n)]
    if any(p is None for p in found):
        return []
    return [dataclasses.replace(trial, name=f"{ID}-part-{i}", command=p or "")
            for i, p in enumerate(found, 1)]


def failure_kind(message: str) -> str:
    """What a failure is, without its particulars: its first line up to the first colon
    (`OSError`, `AssertionError`), or the whole first line."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    return first.split(":", 1)[0].strip()


def judge(planned: Planned, outcomes: Sequence[Outcome] | None = None,
          passed_alone: frozenset[str] = frozenset(), at_once: int | None = None,
          failing_at_base: Mapping[str, str] | None = None,
          base_started: bool = True) -> CheckResult:
    """The check's result: passed where its `parts` all passed (`outcomes`, in their order;
    None: run them here, split across `at_once` cores) and, where they were made for reuse,
    every unchanged file passed in a piece of the suite of its own (`passed_alone`); else
    the whole unsplit run decides, so that a failure is the unsplit run's. A test that
    fails in the base's own run too, the same way (`failing_at_base`: test -> its
    `failure_kind` in the base's tests over the base's code), is not the change's doing. The
    same way: the base's run may run beside the head's commands, and one that holds a port
    the base's test needs would make it fail at base otherwise (`OSError` for an
    `AssertionError`), and hide what base-tests found. Where the base's own run ran no test
    (`base_started` false: its plugin does not load in this environment, say) and the base's
    tests run no test over the head code either, there is nothing to compare: not the change's
    doing (agronholm/anyio f982b249 fixes its plugin for the pytest of the day, which the
    base's plugin, put back, does not load in)."""
    start = time.monotonic()
    reuse = bool(planned.unchanged) and set(planned.unchanged) <= passed_alone
    if outcomes is None:
        cores = scheduler.cores() if at_once is None else at_once
        trials = parts(planned, cores, reuse)
        outcomes = scheduler.run(trials, at_once=max(2, cores)) if trials else []
    made_for_reuse = any(o.trial.name == f"{ID}-own" for o in outcomes)
    decided = (reuse and (made_for_reuse or not planned.own())) or (
        bool(outcomes) and not made_for_reuse)
    if decided and all(o.run.passed for o in outcomes):
        took = max([time.monotonic() - start, *(o.run.completed.duration_s for o in outcomes)])
        return CheckResult(ID, TITLE, "passed", False, f"{planned.what} pass on the head code",
                           duration_s=took)
    return _unsplit(planned, failing_at_base or {}, base_started)


def _uncollected_at_base(failed: Sequence[CaseResult],
                         failing_at_base: Mapping[str, str]) -> list[str]:
    """The files, when every failure is a base test file that cannot be collected, and
    cannot be collected the same way in the base's own run (the pytest of the day rejects
    it, say): none of the change's doing, but a runner stops the whole session at them."""
    if not failed or not all(junit.not_collected(t) and t.file and failing_at_base.get(
            t.name) == failure_kind(t.message) for t in failed):
        return []
    return sorted({t.file for t in failed if t.file})


def _without_uncollected(planned: Planned, failing_at_base: Mapping[str, str],
                         ) -> tuple[TestRun, list[str]]:
    """The unsplit run; where it stopped at base files that the base's own run cannot
    collect either, run again without them (where the runner takes paths), and those
    files. hynek/stamina b922a2e fixes a test file that pytest 9 no longer collects: the
    base's version, put back, stopped the session before the other five base files ran."""
    result = scheduler.run_one(planned.trial).run
    skipped = _uncollected_at_base(result.failed_tests, failing_at_base)
    rest = [p for p in planned.to_run if p not in skipped]
    if not skipped or not planned.narrowed:
        return result, []
    again = scoped_command.narrowed(planned.command, rest, planned.trial.workspace.checkout)
    if again is None:  # nothing else to run (or no way to leave them out)
        return result, skipped if not rest else []
    trial = dataclasses.replace(planned.trial, name=f"{ID}-collected", command=again)
    return scheduler.run_one(trial).run, skipped


def _unsplit(planned: Planned, failing_at_base: Mapping[str, str],
             base_started: bool = True) -> CheckResult:
    files, to_run, what = planned.files, planned.to_run, planned.what
    result, uncollected = _without_uncollected(planned, failing_at_base)
    failed = [pin(t, files, to_run) for t in result.failed_tests]
    duration = result.completed.duration_s
    unjudged = _unjudged([p for p in uncollected if p in files])  # the change edited them
    if result.passed or (uncollected and set(to_run) <= set(uncollected)):
        but = (f", but for {_names(uncollected, 3)}, which cannot be collected in the base's "
               "own run either" + (": not this change's doing" if not unjudged else
                                   ", and which the change edits: nothing judges that edit")
               ) if uncollected else ""
        return CheckResult(ID, TITLE, "failed" if unjudged else "passed", False,
                           f"{what} pass on the head code{but}", findings=tuple(unjudged),
                           duration_s=duration)
    if not base_started and _ran_nothing(result):
        return CheckResult(ID, TITLE, "passed", False, (
            f"{what} run no test on the head code ({result.problem()}), nor did the base's own "
            "tests on the base's code: nothing to compare here, not this change's doing"),
            detail=detail.excerpt([], result.completed.output), duration_s=duration)
    old = [t for t in failed if failing_at_base.get(t.name) == failure_kind(t.message)]
    if old and result.completed.returncode in (0, 1):
        # sloria/environs: a test that fails in the boundary at base and head alike was said
        # as the change altering behaviour, beside the suite's "[pre-existing]" for it
        failed = [t for t in failed if t not in old]
    if old and not failed and result.completed.returncode in (0, 1):
        return CheckResult(ID, TITLE, "passed", False, (
            f"{what} pass on the head code, but for {len(old)} test(s) that fail in the "
            f"base's own run too ({_names([t.name for t in old], 3)}): not this change's "
            "doing"), duration_s=duration)
    status: Status = "timeout" if result.completed.timed_out else (
        "error" if result.completed.not_found else "failed")
    lacking = dropped_deps.findings(
        dropped_deps.missing_modules(failed, result.completed.output), files,
        planned.dropped) if status == "failed" else {}
    failed = [t for t in failed if not dropped_deps.stopped_by(t, lacking)]
    findings = (*lacking.values(), *(_finding(t.name, t.file, t.line, t.message)
                                     for t in failed), *unjudged)
    said = (f"{what}: {_failed_summary(failed)}" if failed and status == "failed"
            else f"{what} fail on the head code ({result.problem()})")
    if lacking:
        names = ", ".join(f"`{m}`" for m in lacking)
        said = (f"{what} could not run over the head code: the head's install lacks {names}, "
                "which the base's tests need" + (f"; {_failed_summary(failed)}" if failed
                                                 else ""))
    return CheckResult(ID, TITLE, status, False, said,
                       detail=detail.excerpt(failed, result.completed.output),
                       findings=findings, duration_s=duration)


def _ran_nothing(result: TestRun) -> bool:
    """A run that ended by itself and ran no test: the session did not start."""
    c = result.completed
    return not c.timed_out and not c.not_found and c.returncode != 0 and (
        result.counts is None or result.counts.passed + result.counts.failed == 0)


def run(ctx: DiffContext, ws: Workspace, command: str,
        at_once: int | None = None) -> CheckResult:
    """The check on its own: `at_once`, how many parts the base's test files are split into
    (by default the cores)."""
    planned = plan(ctx, ws, command)
    return planned if isinstance(planned, CheckResult) else judge(planned, at_once=at_once)
