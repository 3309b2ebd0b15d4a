"""pinned's step among the runtime checks, right after base-tests: its mode and budget from
the config, the suite's time (the budget is counted in suite runs)."""
from __future__ import annotations

import os

from gate.checks import pinned, registry
from gate.engine.change import Change
from gate.engine.context import Workspace
from gate.engine.progress import Progress, timed
from gate.models import CheckResult


def check(change: Change, ws: Workspace, command: str, root: str, suite_result: CheckResult,
          progress: Progress) -> CheckResult:
    """The `pinned` check of the change, as its config asks: skipped when off, or when the
    suite did not pass (a mutant is judged against a green suite)."""
    cfg = change.config
    if cfg.pinned == "off":
        return registry.skipped(pinned.ID, 'skipped: pinned = "off"', required=False)
    if suite_result.status != "passed":
        return registry.skipped(pinned.ID, "skipped: the suite did not pass", required=False)
    one_run = suite_result.duration_s / max(1, cfg.runs)
    budget = pinned.Budget(cfg.pinned_mutants, cfg.pinned_time * one_run,
                           min(cfg.timeout, max(60.0, 5 * one_run)), os.cpu_count() or 1)
    return timed(pinned.ID, progress, lambda: pinned.run(
        change.diff, ws, command, root, cfg.pinned == "review", budget))
