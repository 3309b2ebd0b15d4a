"""The core: judge a head against a base. Knows nothing about who called it."""
from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable
from typing import Any

from gate import config as gate_config
from gate import detect, diff, git, venv, workspace
from gate.checks import base_tests, install, registry, suite
from gate.context import DiffContext, Workspace
from gate.environment import clean_env, with_venv
from gate.models import CheckResult, Report
from gate.verdict import decide


@dataclasses.dataclass(frozen=True)
class Options:
    base: str
    head: str = "HEAD"
    repo: str = "."
    install: str | None = None
    test: str | None = None
    runs: int | None = None
    timeout: float | None = None
    strict: bool | None = None


class Progress:
    """Told when each check starts and ends; the default says nothing."""

    def started(self, check_id: str, title: str) -> None:
        pass

    def finished(self, result: CheckResult) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class Change:
    repo: str
    base: str  # the base ref's SHA
    head: str
    config: gate_config.Config
    diff: DiffContext


def prepare(options: Options) -> Change:
    """Resolve the refs, read the config from the base, parse the diff once."""
    repo = workspace.resolve_repo(options.repo)
    base = git.resolve_commit(repo, options.base)
    head = git.resolve_commit(repo, options.head)
    fork = git.merge_base(repo, base, head)
    cfg = gate_config.load(repo, base)
    overrides: dict[str, Any] = {
        "install": options.install, "test": options.test, "runs": options.runs,
        "timeout": options.timeout, "strict": options.strict,
    }
    cfg = dataclasses.replace(cfg, **{k: v for k, v in overrides.items() if v is not None})
    files = diff.changed_files(repo, fork, head)
    return Change(repo, base, head, cfg, DiffContext(repo, fork, head, cfg, files))


def _timed(check_id: str, progress: Progress, fn: Callable[[], CheckResult]) -> CheckResult:
    progress.started(check_id, registry.title(check_id))
    start = time.monotonic()
    result = fn()
    if not result.duration_s:
        result = dataclasses.replace(result, duration_s=time.monotonic() - start)
    progress.finished(result)
    return result


def _skipped(check_id: str, why: str, required: bool = True) -> CheckResult:
    return CheckResult(check_id, registry.title(check_id), "skipped", required, why)


def _diff_checks(change: Change, progress: Progress) -> dict[str, CheckResult]:
    return {
        check_id: _timed(check_id, progress, functools.partial(fn, change.diff))
        for check_id, fn in registry.DIFF.items()
    }


def _fresh_workspace(root: str, checkout: str, timeout: float) -> Workspace:
    """The clean environment, with a new virtual environment for a Python project."""
    scratch = os.path.join(root, "scratch")
    os.mkdir(scratch)
    env = clean_env()
    if detect.is_python(checkout):
        env = with_venv(env, venv.create(os.path.join(root, "venv")))
    return Workspace(checkout, scratch, env, timeout)


def _runtime_checks(change: Change, progress: Progress) -> dict[str, CheckResult]:
    cfg = change.config
    results: dict[str, CheckResult] = {}
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(change.repo, change.head, os.path.join(root, "checkout"))
        install_cmd = cfg.install or detect.install_command(checkout)
        test_cmd = cfg.test or detect.test_command(checkout)
        progress.started(install.ID, install.TITLE)
        start = time.monotonic()  # the fresh environment is part of the install's cost
        ws = _fresh_workspace(root, checkout, cfg.timeout)
        installed = install.run(ws, install_cmd)
        results[install.ID] = dataclasses.replace(installed, duration_s=time.monotonic() - start)
        progress.finished(results[install.ID])
        if installed.status != "passed":
            why = "skipped: the install did not succeed"
            results[suite.ID] = _skipped(suite.ID, why)
            results[base_tests.ID] = _skipped(base_tests.ID, why, required=False)
            return results
        if test_cmd is None:
            results[suite.ID] = CheckResult(
                suite.ID, suite.TITLE, "error", True,
                "no test command found: pass --test CMD or set `test` in [tool.gate]")
            results[base_tests.ID] = _skipped(base_tests.ID, "skipped: no test command",
                                              required=False)
            return results
        command = test_cmd
        results[suite.ID] = _timed(suite.ID, progress, lambda: suite.run(ws, command, cfg.runs))
        results[base_tests.ID] = _timed(
            base_tests.ID, progress, lambda: base_tests.run(change.diff, ws, command))
    return results


def _report(change: Change, results: dict[str, CheckResult], start: float) -> Report:
    checks = tuple(results[check_id] for check_id in registry.ORDER)
    return Report(decide(checks, strict=change.config.strict), change.base, change.head,
                  time.monotonic() - start, checks)


def run(options: Options, progress: Progress | None = None) -> Report:
    """The whole gate: diff checks, then install, suite and base-tests on a fresh checkout."""
    start = time.monotonic()
    progress = progress or Progress()
    change = prepare(options)
    results = _diff_checks(change, progress)
    results.update(_runtime_checks(change, progress))
    return _report(change, results, start)


def scan(options: Options, progress: Progress | None = None) -> Report:
    """The diff checks alone: no install, no test run."""
    start = time.monotonic()
    change = prepare(options)
    results = _diff_checks(change, progress or Progress())
    for check_id in registry.RUNTIME:
        results[check_id] = _skipped(check_id, "not run by `gate scan`",
                                     required=check_id != base_tests.ID)
    return _report(change, results, start)
