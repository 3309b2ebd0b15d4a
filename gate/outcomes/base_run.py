"""The base's suite, run once on a fresh checkout of the base with its own fresh environment:
each test's outcome at base, which the head's runs are compared with (`compare.py`) and which
gives the baseline (regression or pre-existing). Cached by base SHA and commands
(`outcome_cache.py`)."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

from gate.execution import process, site_hooks, workspace
from gate.execution.run_workspace import Workspace
from gate.outcomes import outcome_cache
from gate.outcomes.record import Counts, counts_from_json
from gate.outcomes.testrun import TestRun
from gate.trials import scheduler
from gate.trials.trial import Trial

# (directory of its own, checkout) -> the fresh environment to run in
MakeWorkspace = Callable[[str, str], Workspace]
# (workspace, command) -> a shard's workspace and command (None: nothing falls to it), and a
# test of whether a run found nothing to run (then the share passed, with no outcome); the
# fourth item is the shard's own (gate/shards/shares.py)
ShareOf = Callable[[Workspace, str], tuple[Workspace, str | None, Callable[[TestRun], bool],
                                           Any]]


@dataclasses.dataclass(frozen=True)
class BaseOutcomes:
    counts: Counts | None  # None: no runner's report or summary was found
    passed: bool  # the base's suite passed as a whole
    installed: bool = True
    cached: bool = False
    site_hooks: tuple[str, ...] | None = None  # what the base's install runs at every start

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.pop("cached")
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> BaseOutcomes | None:
        try:
            counts = data["counts"]
            hooks = data.get("site_hooks")
            return BaseOutcomes(None if counts is None else counts_from_json(counts),
                                bool(data["passed"]), bool(data["installed"]), True,
                                None if hooks is None else tuple(str(h) for h in hooks))
        except (KeyError, TypeError, AttributeError):
            return None


def _ran_to_its_end(run: TestRun) -> bool:
    """Whether the run ended by itself: not cut at its time limit, nor killed by a signal (the
    gate ends its commands when it is interrupted; what a killed run gave is not the base's
    outcomes, and kept in the cache it would read as a base whose suite fails)."""
    code = run.completed.returncode
    return not run.completed.timed_out and code is not None and code >= 0


def _never_empty(run: TestRun) -> bool:
    return False


def run(repo: str, base_sha: str, root: str, install: Callable[[str], str | None],
        test: Callable[[str], str | None], make_workspace: MakeWorkspace,
        cache_key: str | None, share: ShareOf | None = None,
        alone: bool = True) -> BaseOutcomes | None:
    """The base's outcomes, from the cache when `cache_key` has an entry; None when the base
    has no test command. With `share`, the outcomes of a shard's share of the base's suite.
    Not `alone` (the judged code's commands ran beside it): kept in the cache only if the
    base's suite passed, since a head command can make a run beside it fail (hold a port it
    needs, starve a test with a time limit), and a failure kept would speak for the base to
    every later change against it (a regression there read as pre-existing)."""
    if cache_key is not None:
        entry = outcome_cache.load(cache_key)
        found = BaseOutcomes.from_json(entry) if entry is not None else None
        if found is not None:
            return found
    os.mkdir(root)
    checkout = workspace.checkout(repo, base_sha, os.path.join(root, "checkout"))
    ws = make_workspace(root, checkout)
    command = test(checkout)
    if command is None:
        return None
    install_command = install(checkout)
    if install_command is not None:
        done = process.run_shell(install_command, cwd=checkout, env=ws.env, timeout=ws.timeout,
                                 log=ws.log("base-install"), wrap=ws.wrap)
        if not done.ok:
            return BaseOutcomes(None, False, installed=False)
    ws = dataclasses.replace(ws, sealed=True)  # its suite sees the install through an overlay
    hooks = site_hooks.running(ws.env)
    nothing: Callable[[TestRun], bool] = _never_empty
    if share is not None:
        ws, shared, nothing, _ = share(ws, command)
        if shared is None:
            return BaseOutcomes(None, True, site_hooks=hooks)
        command = shared
    tests = "shard" if share is not None else "base"
    result = scheduler.run_one(Trial("base-suite", ws, command, code="base", tests=tests)).run
    outcomes = (BaseOutcomes(None, True, site_hooks=hooks) if nothing(result)
                else BaseOutcomes(result.counts, result.passed, site_hooks=hooks))
    if cache_key is not None and _ran_to_its_end(result) and (alone or outcomes.passed):
        outcome_cache.store(cache_key, outcomes.to_json())
    return outcomes
