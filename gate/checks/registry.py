"""Every check, in the order of DESIGN.md: the runtime checks, then the diff checks.

One literal, ordered table (pre-commit's `all_languages.py`), typed: mypy checks each module
against `Check` or `DiffCheck`. A module is imported when it is first asked for, so that
`gate run` imports the diff checks on the thread that runs them, beside the install, not
before it (about 20 ms of start-up)."""
from __future__ import annotations

import functools
from collections.abc import Callable

from gate.checks.check import Check, DiffCheck
from gate.engine.context import DiffContext
from gate.models import CheckResult


def _install() -> Check:
    from gate.checks import install
    return install


def _suite() -> Check:
    from gate.checks import suite
    return suite


def _base_tests() -> Check:
    from gate.checks import base_tests
    return base_tests


def _pinned() -> Check:
    from gate.checks import pinned
    return pinned


def _tests_removed() -> DiffCheck:
    from gate.checks import tests_removed
    return tests_removed


def _skip_markers() -> DiffCheck:
    from gate.checks import skip_markers
    return skip_markers


def _escapes() -> DiffCheck:
    from gate.checks import escapes
    return escapes


def _check_config() -> DiffCheck:
    from gate.checks.check_config import check
    return check


def _harness() -> DiffCheck:
    from gate.checks.harness import check
    return check


def _agent_config() -> DiffCheck:
    from gate.checks.agent_config import check
    return check


def _lockfiles() -> DiffCheck:
    from gate.checks import lockfiles
    return lockfiles


def _diff_policy() -> DiffCheck:
    from gate.checks import diff_policy
    return diff_policy


_RUNTIME: dict[str, Callable[[], Check]] = {
    "install": _install,
    "suite": _suite,
    "base-tests": _base_tests,
    "pinned": _pinned,
}
_DIFF: dict[str, Callable[[], DiffCheck]] = {
    "tests-removed": _tests_removed,
    "skip-markers": _skip_markers,
    "escapes": _escapes,
    "check-config": _check_config,
    "harness": _harness,
    "agent-config": _agent_config,
    "lockfiles": _lockfiles,
    "diff-policy": _diff_policy,
}
RUNTIME: tuple[str, ...] = tuple(_RUNTIME)
DIFF: tuple[str, ...] = tuple(_DIFF)
ORDER: tuple[str, ...] = RUNTIME + DIFF


@functools.cache
def check(check_id: str) -> Check:
    """The module of a check, by id (KeyError for an id that is not one)."""
    return _RUNTIME[check_id]() if check_id in _RUNTIME else _DIFF[check_id]()


def title(check_id: str) -> str:
    return check(check_id).TITLE


def explanation(check_id: str) -> str:
    return check(check_id).EXPLANATION


def diff_check(check_id: str) -> Callable[[DiffContext], CheckResult]:
    return _DIFF[check_id]().run


def skipped(check_id: str, why: str, required: bool = True) -> CheckResult:
    """The result of a check that did not run, and why."""
    return CheckResult(check_id, title(check_id), "skipped", required, why)
