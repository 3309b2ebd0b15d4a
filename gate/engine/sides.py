"""The two sides' workspaces and the base's outcomes, as a run lays them out: a fresh
workspace for this project (`fresh_workspace`: execution/fresh_environment.py with the
project's virtual environment, the gate's pytest plugins and the toolchains' pins), what every
test command runs under (`prefix`), and the base's outcomes: from the cache or one run of the
base's suite, started beside the head's install (`base_early`), beside the suite's runs
(`base_beside`) or after them."""
from __future__ import annotations

import functools
import os
from collections.abc import Callable

from gate.engine import background
from gate.engine.change import Change
from gate.execution import fresh_environment, isolation, network, venv, workspace
from gate.execution.environment import CiEnvironment
from gate.execution.logs import Logs
from gate.execution.run_workspace import Workspace
from gate.outcomes import base_commands, base_run, detect, outcome_cache
from gate.outcomes.runners import go
from gate.outcomes.runners import pytest as pytest_runner
from gate.shards import shares
from gate.trials import selection


def environment(root: str, checkout: str, python: str | None = None) -> str | None:
    """A new virtual environment for a Python project (None: not one), beside `root`, with
    the interpreter `python` where given."""
    return venv.create(workspace.environment_dir(root), python) if detect.is_python(
        checkout) else None


@functools.cache
def python_of(repo: str, base_sha: str) -> str | None:
    """The interpreter of the Python the base's tox environment or nox session names, where
    this machine has it (`python3.12` on PATH); None: the default."""
    return venv.interpreter(base_commands.python_version(repo, base_sha))


@functools.cache
def ci_variables(repo: str, base_sha: str) -> CiEnvironment:
    """What the base's CI sets for its test job (`outcomes/ci_env.py`), read once a run."""
    return base_commands.ci_variables(repo, base_sha)


def fresh_workspace(change: Change, root: str, checkout: str, test_prefix: tuple[str, ...],
                     boundary: isolation.Boundary, logs: Logs | None = None,
                     run_root: str | None = None, *, trusted: bool = False,
                     made: Callable[[], str | None] | None = None) -> Workspace:
    """A fresh workspace (`execution/fresh_environment.py`) for this project: a virtual
    environment where it is a Python one (`made`: the one already being made), the gate's
    pytest plugins on its path, no go.work from above the checkout, what the base's CI sets
    for its tests."""
    return fresh_environment.workspace_for(
        root, checkout, change.config.timeout, test_prefix, boundary, logs, run_root,
        trusted=trusted, venv=made or functools.partial(
            environment, root, checkout, python_of(change.repo, change.diff.base)),
        pin=go.workspace_pin, plugin_dir=pytest_runner.PLUGIN_DIR,
        ci=ci_variables(change.repo, change.diff.base))


def base_key(change: Change) -> str | None:
    """The base's outcomes' entry in the cache (None: `cache = false`)."""
    cfg = change.config
    return outcome_cache.key(change.repo, change.diff.base, cfg.install, cfg.test,
                             shares.cache_part(change.shard, change.seconds),
                             network=cfg.network) if cfg.cache else None


def base_line(change: Change, where: str) -> str:
    """The progress line of the base's work: from the cache, or run `where` ("beside the
    install and the suite's runs", "after the suite's runs")."""
    key = base_key(change)
    if key is not None and outcome_cache.load(key) is not None:
        return "the base's outcomes: from the cache"
    return (f"the base's suite, once, {where}"
            + (": cached for the next PR against this base" if key is not None else ""))


def base_outcomes(change: Change, root: str, boundary: isolation.Boundary,
                   logs: Logs | None, share: shares.ShareOf | None,
                   ) -> base_run.BaseOutcomes | None:
    """The base's suite, once, in its own checkout and environment; or from the cache. Of
    the selected tests (`share`: a shard's share of them)."""
    cfg = change.config
    key = base_key(change)
    return base_run.run(
        change.repo, change.diff.base, os.path.join(root, "base"),
        lambda checkout: cfg.install or detect.install_command(checkout),
        lambda checkout: cfg.test or detect.test_command(checkout),
        lambda where, checkout: fresh_workspace(change, where, checkout, prefix(change),
                                                 boundary, logs, root, trusted=True),
        key, share, alone=not cfg.parallel)  # in parallel, the head's commands run beside it


def prefix(change: Change) -> tuple[str, ...]:
    """What every test command runs under: offline where the tests get no network."""
    return network.offline_prefix() if change.config.network == "off" else ()


class After:
    """The base's outcomes after the suite's runs (`parallel = false`), run when asked."""

    def __init__(self, fn: Callable[[], base_run.BaseOutcomes | None]) -> None:
        self.result = fn

    def wait(self) -> None:
        pass


Beside = background.Background[base_run.BaseOutcomes | None] | After


def base_early(change: Change, root: str, boundary: isolation.Boundary,
                logs: Logs | None) -> background.Background[base_run.BaseOutcomes | None] | None:
    """The base's outcomes, started beside the head's install under `parallel` (its checkout,
    install and suite need nothing of the head's); None under `--shard` (the base's share is
    cut as the head's tests are, after the install) or one after another."""
    if not change.config.parallel or change.shard is not None:
        return None
    outcomes = functools.partial(base_outcomes, change, root, boundary, logs, None)
    return background.Background(outcomes, "gate-base-outcomes")


def base_beside(change: Change, root: str, ws: Workspace,
                 chosen: selection.Selection) -> Beside:
    """The base's outcomes, started beside the suite's runs under `parallel`."""
    outcomes = functools.partial(base_outcomes, change, root, ws.boundary, ws.logs,
                                 chosen.base_share(change))
    if change.config.parallel:
        return background.Background(outcomes, "gate-base-outcomes")
    return After(outcomes)
