"""The core: judge a head against a base. Knows nothing about who called it."""
from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from gate import (
    allow,
    background,
    baseline,
    count_drop,
    detect,
    diff,
    git,
    installer,
    network,
    redact,
    venv,
    workspace,
)
from gate import config as gate_config
from gate.checks import base_tests, install, registry, suite, tests_removed, user
from gate.context import DiffContext, Workspace
from gate.environment import clean_env, with_venv
from gate.models import CheckResult, Finding, Report
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
    parallel: bool | None = None
    config: str | None = None  # a TOML file with the keys of .gate.toml, read from the base
    staged: bool = False  # judge the index against HEAD instead of --head (`gate scan --staged`)


class Progress:
    """Told when each check starts and ends; the default says nothing."""

    def started(self, check_id: str, title: str) -> None:
        pass

    def finished(self, result: CheckResult) -> None:
        pass


class _OneAtATime(Progress):
    """`gate run` tells its progress from two threads (the diff checks run beside the
    install); the caller's Progress hears one call at a time."""

    def __init__(self, inner: Progress) -> None:
        self._inner = inner
        self._lock = threading.Lock()

    def started(self, check_id: str, title: str) -> None:
        with self._lock:
            self._inner.started(check_id, title)

    def finished(self, result: CheckResult) -> None:
        with self._lock:
            self._inner.finished(result)


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
    head = git.resolve_commit(repo, "HEAD" if options.staged else options.head)
    fork = git.merge_base(repo, base, head)
    cfg = gate_config.load(repo, base, options.config)
    overrides: dict[str, Any] = {
        "install": options.install, "test": options.test, "runs": options.runs,
        "timeout": options.timeout, "strict": options.strict, "parallel": options.parallel,
    }
    cfg = dataclasses.replace(cfg, **{k: v for k, v in overrides.items() if v is not None})
    user.validate(cfg.checks, registry.ORDER, cfg.source)
    if options.staged:  # the index is the head; the report names it "index"
        files = diff.staged_files(repo, fork)
        return Change(repo, base, "index", cfg, DiffContext(repo, fork, git.INDEX, cfg, files))
    files = diff.changed_files(repo, fork, head)
    return Change(repo, base, head, cfg, DiffContext(repo, fork, head, cfg, files))


def _timed(check_id: str, progress: Progress, fn: Callable[[], CheckResult],
           title: str | None = None) -> CheckResult:
    progress.started(check_id, title or registry.title(check_id))
    start = time.monotonic()
    result = redact.check(fn())  # nothing a command printed is shown before this
    if not result.duration_s:
        result = dataclasses.replace(result, duration_s=time.monotonic() - start)
    progress.finished(result)
    return result


def _skipped(check_id: str, why: str, required: bool = True) -> CheckResult:
    return CheckResult(check_id, registry.title(check_id), "skipped", required, why)


def _diff_check(change: Change, check_id: str, fn: Callable[[DiffContext], CheckResult],
                ) -> CheckResult:
    return allow.apply(change.diff, check_id, fn(change.diff))


def _diff_checks(change: Change, progress: Progress) -> dict[str, CheckResult]:
    return {
        check_id: _timed(check_id, progress, functools.partial(
            _diff_check, change, check_id, registry.diff_check(check_id)))
        for check_id in registry.DIFF
    }


def _fresh_workspace(root: str, checkout: str, timeout: float,
                     test_prefix: tuple[str, ...] = ()) -> Workspace:
    """The clean environment, with a new virtual environment for a Python project. Its
    temporary directory is the run's own, so what commands leave there goes with the run."""
    scratch, tmp = os.path.join(root, "scratch"), os.path.join(root, "tmp")
    os.mkdir(scratch)
    os.mkdir(tmp)
    env = {**clean_env(), "TMPDIR": tmp,
           workspace.run_marker(root): "1"}  # killed when the run ends
    if detect.is_python(checkout):
        env = with_venv(installer.uv_settings(env), venv.create(os.path.join(root, "venv")))
    return Workspace(checkout, scratch, env, timeout, test_prefix)


def _user_checks(change: Change, ws: Workspace, progress: Progress,
                 results: dict[str, CheckResult]) -> None:
    for check in change.config.checks:
        results[check.name] = _timed(check.name, progress, functools.partial(user.run, ws, check),
                                     title=user.title(check))


def _baseline(change: Change, ws: Workspace, results: dict[str, CheckResult]) -> None:
    """The required checks that failed on the head, run on the base and classified."""
    cfg = change.config
    failing = {k: r for k, r in results.items() if baseline.needed(r)}
    if failing:
        prefix = ws.test_prefix
        classified = baseline.run(
            change.repo, change.diff.base, failing,
            lambda checkout: cfg.install or detect.install_command(checkout),
            cfg.test or detect.test_command(ws.checkout), cfg.checks,
            lambda root, checkout: _fresh_workspace(root, checkout, cfg.timeout, prefix))
        results.update({k: redact.check(r) for k, r in classified.items()})


def _collections(change: Change, ws: Workspace, root: str,
                 command: str) -> count_drop.Collections | None:
    """The collections for the test-count comparison (pytest only), when the change touches
    what decides them; run beside the suite."""
    if (not detect.is_python(ws.checkout) or "pytest" not in command
            or not count_drop.may_change_collection(change.diff)):
        return None
    base = workspace.checkout(change.repo, change.diff.base, os.path.join(root, "base"))
    return count_drop.collect(base, ws.checkout, command, ws.env, ws.timeout)


def _count_drop(change: Change, ws: Workspace, sets: count_drop.Collections | None,
                ) -> list[Finding]:
    """Tests collected at base that the head no longer runs (before base-tests puts the
    base's files over the checkout)."""
    if sets is None:
        return []
    head = count_drop.head_collection(sets, os.path.join(ws.scratch, suite.FIRST_REPORT),
                                      ws.checkout, ws.env, ws.timeout)
    return count_drop.findings(change.diff, sets.base, head) if head is not None else []


def _side_by_side(change: Change, ws: Workspace, root: str) -> list[Workspace]:
    """A checkout per suite run (the first is the install's), sharing its environment."""
    extra = [workspace.checkout(change.repo, change.head, os.path.join(root, f"checkout-{i}"))
             for i in range(2, change.config.runs + 1)]
    return [ws, *(dataclasses.replace(ws, checkout=path) for path in extra)]


def _runtime_checks(change: Change, progress: Progress) -> dict[str, CheckResult]:
    cfg = change.config
    results: dict[str, CheckResult] = {}
    prefix = network.offline_prefix() if cfg.network == "off" else ()
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(change.repo, change.head, os.path.join(root, "checkout"))
        install_cmd = cfg.install or detect.install_command(checkout)
        test_cmd = cfg.test or detect.test_command(checkout)
        progress.started(install.ID, install.TITLE)
        start = time.monotonic()  # the fresh environment is part of the install's cost
        ws = _fresh_workspace(root, checkout, cfg.timeout, prefix)
        installed = redact.check(install.run(ws, install_cmd))
        results[install.ID] = dataclasses.replace(installed, duration_s=time.monotonic() - start)
        progress.finished(results[install.ID])
        if installed.status != "passed":
            why = "skipped: the install did not succeed"
            results[suite.ID] = _skipped(suite.ID, why)
            results[base_tests.ID] = _skipped(base_tests.ID, why, required=False)
            results.update({c.name: user.skipped(c, why) for c in cfg.checks})
            _baseline(change, ws, results)
            return results
        if test_cmd is None:
            results[suite.ID] = CheckResult(
                suite.ID, suite.TITLE, "error", True,
                "no test command found: pass --test CMD or set `test` in [tool.gate]")
            results[base_tests.ID] = _skipped(base_tests.ID, "skipped: no test command",
                                              required=False)
            _user_checks(change, ws, progress, results)
            _baseline(change, ws, results)
            return results
        command = test_cmd
        spaces = _side_by_side(change, ws, root) if cfg.parallel and cfg.runs > 1 else []
        # The collections of the test-count comparison run while the suite runs (they only
        # read the checkout), and are done before base-tests puts the base's files over it.
        collections = background.Background(
            functools.partial(_collections, change, ws, root, command), "gate-collections")
        try:
            results[suite.ID] = _timed(suite.ID, progress,
                                       lambda: suite.run(ws, command, cfg.runs, spaces))
        except BaseException:  # interrupted: end the collections before the root goes
            workspace.end_commands(root)
            collections.wait()
            raise
        dropped = _count_drop(change, ws, collections.result())
        results[base_tests.ID] = _timed(
            base_tests.ID, progress, lambda: base_tests.run(change.diff, ws, command))
        _user_checks(change, ws, progress, results)
        _baseline(change, ws, results)
        if dropped:
            results[_DROPPED] = CheckResult(tests_removed.ID, "", "failed", False, "",
                                            findings=tuple(dropped))
    return results


_DROPPED = "tests-removed:not-collected"  # merged into tests-removed by _report


def _report(change: Change, results: dict[str, CheckResult], start: float) -> Report:
    if _DROPPED in results:
        results[tests_removed.ID] = count_drop.merge(results[tests_removed.ID],
                                                     list(results.pop(_DROPPED).findings))
    checks = tuple(results[check_id] for check_id in registry.ORDER) + tuple(
        results[c.name] for c in change.config.checks)
    optional = {c.name for c in change.config.checks if not c.required}
    report = Report(decide(checks, strict=change.config.strict, advisory=optional),
                    change.base, change.head, time.monotonic() - start, checks)
    return redact.report(report)


def run(options: Options, progress: Progress | None = None) -> Report:
    """The whole gate: install, suite and base-tests on a fresh checkout, and beside them (on
    a thread: they are Python work, while the runtime checks mostly wait for commands) the
    diff checks."""
    start = time.monotonic()
    progress = _OneAtATime(progress or Progress())
    change = prepare(options)
    scanned = background.Background(functools.partial(_diff_checks, change, progress),
                                    "gate-diff-checks")
    results = _runtime_checks(change, progress)
    return _report(change, {**scanned.result(), **results}, start)


def scan(options: Options, progress: Progress | None = None) -> Report:
    """The diff checks alone: no install, no test run."""
    start = time.monotonic()
    change = prepare(options)
    results = _diff_checks(change, progress or Progress())
    for check_id in registry.RUNTIME:
        results[check_id] = _skipped(check_id, "not run by `gate scan`",
                                     required=check_id != base_tests.ID)
    results.update({c.name: user.skipped(c, "not run by `gate scan`")
                    for c in change.config.checks})
    return _report(change, results, start)
