"""Every check, in the order of DESIGN.md: the runtime checks, then the diff checks."""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from gate.checks import (
    base_tests,
    check_config,
    diff_policy,
    escapes,
    install,
    lockfiles,
    skip_markers,
    suite,
    tests_removed,
)
from gate.context import DiffContext
from gate.models import CheckResult

RUNTIME: dict[str, ModuleType] = {m.ID: m for m in (install, suite, base_tests)}
DIFF: dict[str, Callable[[DiffContext], CheckResult]] = {
    tests_removed.ID: tests_removed.run,
    skip_markers.ID: skip_markers.run,
    escapes.ID: escapes.run,
    check_config.ID: check_config.run,
    lockfiles.ID: lockfiles.run,
    diff_policy.ID: diff_policy.run,
}
MODULES: dict[str, ModuleType] = {
    m.ID: m
    for m in (install, suite, base_tests, tests_removed, skip_markers, escapes, check_config,
              lockfiles, diff_policy)
}
ORDER: tuple[str, ...] = tuple(MODULES)


def title(check_id: str) -> str:
    return str(MODULES[check_id].TITLE)


def explanation(check_id: str) -> str:
    return str(MODULES[check_id].EXPLANATION)
