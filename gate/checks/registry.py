"""Every check, in the order of DESIGN.md: the runtime checks, then the diff checks.

A check's module is imported when it is first asked for, so that `gate run` imports the
diff checks on the thread that runs them, beside the install, not before it."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from gate.engine.context import DiffContext
from gate.models import CheckResult

_MODULES = {
    "install": "install",
    "suite": "suite",
    "base-tests": "base_tests",
    "tests-removed": "tests_removed",
    "skip-markers": "skip_markers",
    "escapes": "escapes",
    "check-config": "check_config.check",
    "lockfiles": "lockfiles",
    "diff-policy": "diff_policy",
}
ORDER: tuple[str, ...] = tuple(_MODULES)
RUNTIME: tuple[str, ...] = ORDER[:3]
DIFF: tuple[str, ...] = ORDER[3:]


def module(check_id: str) -> ModuleType:
    return importlib.import_module(f"gate.checks.{_MODULES[check_id]}")


def title(check_id: str) -> str:
    return str(module(check_id).TITLE)


def explanation(check_id: str) -> str:
    return str(module(check_id).EXPLANATION)


def diff_check(check_id: str) -> Callable[[DiffContext], CheckResult]:
    run: Callable[[DiffContext], CheckResult] = module(check_id).run
    return run


def skipped(check_id: str, why: str, required: bool = True) -> CheckResult:
    """The result of a check that did not run, and why."""
    return CheckResult(check_id, title(check_id), "skipped", required, why)
