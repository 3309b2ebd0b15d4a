"""The runtime checks: install, suite and base-tests on a fresh checkout of the head, the
user checks, the test-count collections beside the suite, and the baseline when needed."""
from __future__ import annotations

import dataclasses
import functools
import os
import time

from gate.checks import base_tests, install, registry, suite, tests_removed, user
from gate.engine import background, redact
from gate.engine.change import Change
from gate.engine.context import Workspace
from gate.engine.progress import Progress, timed
from gate.execution import installer, isolation, network, venv, workspace
from gate.execution.environment import clean_env, with_venv
from gate.models import CheckResult, Finding
from gate.outcomes import baseline, count_drop, detect

DROPPED = "tests-removed:not-collected"  # the tests no longer run: merged into tests-removed


def _fresh_workspace(root: str, checkout: str, timeout: float, test_prefix: tuple[str, ...],
                     boundary: isolation.Boundary) -> Workspace:
    """The clean environment, with a new virtual environment for a Python project. Its
    temporary directory is the run's own, so what commands leave there goes with the run."""
    scratch, tmp = os.path.join(root, "scratch"), os.path.join(root, "tmp")
    os.mkdir(scratch)
    os.mkdir(tmp)
    env = {**clean_env(), "TMPDIR": tmp,
           workspace.run_marker(root): "1"}  # killed when the run ends
    if detect.is_python(checkout):
        env = with_venv(installer.uv_settings(env),
                        venv.create(workspace.environment_dir(root)))
    return Workspace(checkout, scratch, env, timeout, test_prefix, boundary)


def _user_checks(change: Change, ws: Workspace, progress: Progress,
                 results: dict[str, CheckResult]) -> None:
    for check in change.config.checks:
        results[check.name] = timed(check.name, progress, functools.partial(user.run, ws, check),
                                    title=user.title(check))


def _baseline(change: Change, ws: Workspace, results: dict[str, CheckResult]) -> None:
    """The required checks that failed on the head, run on the base and classified."""
    cfg = change.config
    failing = {k: r for k, r in results.items() if baseline.needed(r)}
    if failing:
        prefix, boundary = ws.test_prefix, ws.boundary
        classified = baseline.run(
            change.repo, change.diff.base, failing,
            lambda checkout: cfg.install or detect.install_command(checkout),
            cfg.test or detect.test_command(ws.checkout), cfg.checks,
            lambda root, checkout: _fresh_workspace(root, checkout, cfg.timeout, prefix,
                                                    boundary))
        results.update({k: redact.check(r) for k, r in classified.items()})


def _collections(change: Change, ws: Workspace, root: str,
                 command: str) -> count_drop.Collections | None:
    """The collections for the test-count comparison (pytest only), when the change touches
    what decides them; run beside the suite."""
    if (not detect.is_python(ws.checkout) or "pytest" not in command
            or not count_drop.may_change_collection(change.diff)):
        return None
    base = workspace.checkout(change.repo, change.diff.base, os.path.join(root, "base"))
    return count_drop.collect(base, ws.checkout, command, ws.env, ws.timeout, ws.wrap)


def _count_drop(change: Change, ws: Workspace, sets: count_drop.Collections | None,
                ) -> list[Finding]:
    """Tests collected at base that the head no longer runs (before base-tests puts the
    base's files over the checkout)."""
    if sets is None:
        return []
    head = count_drop.head_collection(sets, os.path.join(ws.scratch, suite.FIRST_REPORT),
                                      ws.checkout, ws.env, ws.timeout, ws.wrap)
    return count_drop.findings(change.diff, sets.base, head) if head is not None else []


def _side_by_side(change: Change, ws: Workspace, root: str) -> list[Workspace]:
    """A checkout per suite run (the first is the install's), sharing its environment."""
    extra = [workspace.checkout(change.repo, change.head, os.path.join(root, f"checkout-{i}"))
             for i in range(2, change.config.runs + 1)]
    return [ws, *(dataclasses.replace(ws, checkout=path) for path in extra)]


def _install(change: Change, root: str, checkout: str, progress: Progress,
             boundary: isolation.Boundary) -> tuple[Workspace, CheckResult]:
    """The fresh environment and the install; making the environment is part of its cost."""
    cfg = change.config
    prefix = network.offline_prefix() if cfg.network == "off" else ()
    progress.started(install.ID, install.TITLE)
    start = time.monotonic()
    ws = _fresh_workspace(root, checkout, cfg.timeout, prefix, boundary)
    installed = redact.check(install.run(ws, cfg.install or detect.install_command(checkout)))
    result = dataclasses.replace(installed, duration_s=time.monotonic() - start)
    progress.finished(result)
    return ws, result


def _tests(change: Change, ws: Workspace, root: str, command: str, progress: Progress,
           results: dict[str, CheckResult]) -> None:
    """The suite runs, the test-count drop, base-tests and the user checks."""
    cfg = change.config
    spaces = _side_by_side(change, ws, root) if cfg.parallel and cfg.runs > 1 else []
    # The collections of the test-count comparison run while the suite runs (they only read
    # the checkout), and are done before base-tests puts the base's files over it.
    collections = background.Background(
        functools.partial(_collections, change, ws, root, command), "gate-collections")
    try:
        results[suite.ID] = timed(suite.ID, progress,
                                  lambda: suite.run(ws, command, cfg.runs, spaces))
    except BaseException:  # interrupted: end the collections before the root goes
        workspace.end_commands(root)
        collections.wait()
        raise
    dropped = _count_drop(change, ws, collections.result())
    if dropped:
        results[DROPPED] = CheckResult(tests_removed.ID, "", "failed", False, "",
                                       findings=tuple(dropped))
    results[base_tests.ID] = timed(
        base_tests.ID, progress, lambda: base_tests.run(change.diff, ws, command))
    _user_checks(change, ws, progress, results)


def checks(change: Change, progress: Progress,
           boundary: isolation.Boundary) -> dict[str, CheckResult]:
    """The runtime checks' results by id (user checks by name), in one temporary root that
    is removed, with every process still running in it, when they end. Every command of the
    judged code runs in `boundary`."""
    cfg = change.config
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(change.repo, change.head, os.path.join(root, "checkout"))
        ws, installed = _install(change, root, checkout, progress, boundary)
        results = {install.ID: installed}
        test_cmd = cfg.test or detect.test_command(checkout)
        if installed.status != "passed":
            why = "skipped: the install did not succeed"
            results[suite.ID] = registry.skipped(suite.ID, why)
            results[base_tests.ID] = registry.skipped(base_tests.ID, why, required=False)
            results.update({c.name: user.skipped(c, why) for c in cfg.checks})
        elif test_cmd is None:
            results[suite.ID] = CheckResult(
                suite.ID, suite.TITLE, "error", True,
                "no test command found: pass --test CMD or set `test` in [tool.gate]")
            results[base_tests.ID] = registry.skipped(base_tests.ID, "skipped: no test command",
                                                      required=False)
            _user_checks(change, ws, progress, results)
        else:
            _tests(change, ws, root, test_cmd, progress, results)
        _baseline(change, ws, results)
    return results
