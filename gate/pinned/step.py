"""pinned's step among the runtime checks, right after base-tests: its mode and budget from
the config, the suite's time (the budget is counted in suite runs, and each mutant's own
limit in the time its tests took in the suite's first run)."""
from __future__ import annotations

import os
from collections.abc import Sequence

from gate.checks import pinned, registry
from gate.engine.change import Change
from gate.engine.progress import Progress, timed
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult
from gate.outcomes.testrun import TestRun
from gate.pinned import limits


def check(change: Change, ws: Workspace, command: str, root: str, suite_result: CheckResult,
          progress: Progress, suite_runs: Sequence[TestRun] = ()) -> CheckResult:
    """The `pinned` check of the change, as its config asks: skipped when off, or when the
    suite did not pass (a mutant is judged against a green suite)."""
    cfg = change.config
    if cfg.pinned == "off":
        return registry.skipped(pinned.ID, 'skipped: pinned = "off"', required=False)
    if suite_result.status != "passed":
        return registry.skipped(pinned.ID, "skipped: the suite did not pass", required=False)
    one_run = suite_result.duration_s / max(1, cfg.runs)
    first = suite_runs[0] if suite_runs else None
    own = limits.from_run(first, one_run, cfg.timeout)
    budget = pinned.Budget(cfg.pinned_mutants, cfg.pinned_time * one_run, own,
                           os.cpu_count() or 1)
    return timed(pinned.ID, progress, lambda: pinned.run(
        change.diff, ws, command, root, cfg.pinned == "review", budget))
