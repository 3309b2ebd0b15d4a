"""`gate run --quick`: the head installed as `gate run` installs it (the same boundary, the same
fresh environment), then only what the plan says (gate/quick/plan.py); the diff checks beside
the install, as in `gate run` (they take a fraction of a second, and a new `# type: ignore` is
what a lint loop should hear of first). Every other check is in the report, skipped, so that
the report keeps the gate's shape; its `quick` object says it is not the full gate, and no
front door takes it for one."""
from __future__ import annotations

import functools
import time
from typing import Any

from gate.checks import install, registry, suite, user
from gate.engine import background, redact, runtime
from gate.engine import runner as gate_runner
from gate.engine.change import Change, Options, prepare
from gate.engine.progress import OneAtATime, Progress, timed
from gate.engine.verdict import decide
from gate.execution import isolation
from gate.execution import logs as command_logs
from gate.execution.run_workspace import Workspace
from gate.models import NOTHING_RUN, CheckResult, Isolation, Report
from gate.outcomes import base_commands, outcome_cache
from gate.quick import change_kind
from gate.quick.plan import Plan, plan
from gate.trials import order

NOT_RUN = "not run by `gate run --quick`"


def _quick(the_plan: Plan) -> dict[str, Any]:
    ran = the_plan.ran() + ([*registry.DIFF] if the_plan.kind != "none" else [])
    return {"full_gate": False, "change_kind": the_plan.kind, "ran": ran, "why": the_plan.why}


def _suite_once(ws: Workspace, command: str | None, seed: int,
                progress: Progress) -> CheckResult:
    """One run of the suite, in the project's order."""
    if command is None:
        return suite.no_test_command()
    return suite.run_with_outcomes(ws, command, 1, (),
                                   functools.partial(progress.step, suite.ID), seed).result


def _ran(change: Change, the_plan: Plan, progress: Progress, boundary: isolation.Boundary,
         logs: command_logs.Logs | None) -> dict[str, CheckResult]:
    with runtime.installed_head(change, progress, boundary, logs) as (ws, installed, _):
        results = {install.ID: installed}
        if installed.status != "passed":
            why = "skipped: the install did not succeed"
            if the_plan.suite:
                results[suite.ID] = registry.skipped(suite.ID, why)
            results.update({c.name: user.skipped(c, why) for c in the_plan.checks})
            return results
        for check in the_plan.checks:
            results[check.name] = timed(check.name, progress,
                                        functools.partial(user.run, ws, check),
                                        title=user.title(check))
        if the_plan.suite:
            command = base_commands.test_command(change.repo, change.diff.base,
                                                 change.config.test, ws.checkout)
            results[suite.ID] = timed(suite.ID, progress,
                                      lambda: _suite_once(ws, command, order.seed_of(change.head),
                                                          progress))
    return results


def _report(change: Change, the_plan: Plan, results: dict[str, CheckResult], start: float,
            isolated: Isolation) -> Report:
    ordered = tuple(results.get(i) or registry.skipped(i, NOT_RUN, required=False)
                    for i in registry.ORDER)
    users = tuple(results.get(c.name) or user.skipped(c, NOT_RUN) for c in change.config.checks)
    optional = {c.name for c in change.config.checks if not c.required}
    checks = ordered + users
    report = Report(decide(checks, strict=change.config.strict, advisory=optional),
                    change.base, change.head, time.monotonic() - start, checks, isolated,
                    quick=_quick(the_plan))
    return redact.report(report)


def run(options: Options, progress: Progress | None = None) -> Report:
    """The quick check of `options`' change: install, then the plan for its kind."""
    start = time.monotonic()
    progress = OneAtATime(progress or Progress())
    logs = command_logs.prepare(options.logs) if options.logs else None
    change = prepare(options)
    unchanged = change.head == change.base or change.diff.base == change.head
    the_plan = plan("none" if unchanged else change_kind.of(change.diff), change.config.checks)
    if the_plan.kind == "none":  # the base itself, or a commit that changes no file
        return _report(change, the_plan, {}, start, NOTHING_RUN)
    cache = outcome_cache.made() if change.config.cache else None
    boundary = isolation.choose(
        change.config.isolation, (change.repo, *options.protect, *([cache] if cache else [])),
        tmp_mb=change.config.tmp_size_mb)
    scanned = background.Background(functools.partial(gate_runner.diff_checks, change, progress),
                                    "gate-diff-checks")
    results = _ran(change, the_plan, progress, boundary, logs)
    return _report(change, the_plan, {**scanned.result(), **results}, start,
                   boundary.isolation)
