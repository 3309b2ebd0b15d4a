"""Per-test results for every common runner: one parser per runner, tried in this order.

A parser reads the run's combined output (and, for pytest, the report file it asked for) and
returns the runner's counts, or None when the output is not that runner's. Runners that can
write a machine report without editing the user's command are asked to through the
environment (`report_env`); Jest, Vitest, Mocha, unittest and uvu are read from their closing
summary, and each test is named from the report the gate's preloads write in the run, where
it agrees with that summary (`runners.reports`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gate.execution.environment import extended
from gate.outcomes import colour
from gate.outcomes.record import CaseResult, Counts
from gate.outcomes.runners import (
    cargo,
    go,
    jest,
    mocha,
    nextest,
    node_builtin,
    pytest,
    reports,
    unittest,
    uvu,
    vitest,
)

__all__ = ["PARSERS", "CaseResult", "Counts", "read", "report_env"]

# nextest before cargo test (nextest prints captured "test result:" lines); the others
# recognise a summary line that no other runner prints.
PARSERS: dict[str, Callable[[str, str], Counts | None]] = {
    pytest.NAME: pytest.parse,
    nextest.NAME: nextest.parse,
    cargo.NAME: cargo.parse,
    go.NAME: go.parse,
    jest.NAME: jest.parse,
    vitest.NAME: vitest.parse,
    mocha.NAME: mocha.parse,
    node_builtin.NAME: node_builtin.parse,
    unittest.NAME: unittest.parse,
    uvu.NAME: uvu.parse,
}


def plain(output: str) -> str:
    """`output` without its colour codes (`colour.py`): a runner may colour its output in a
    pipe (uvu does, and any with FORCE_COLOR set by the project); the gate reads it plain,
    never asking the tests for plain output through the environment."""
    return colour.plain(output)


def report_env(environ: Mapping[str, str], report: str,
               extra_addopts: Sequence[str] = (), pins: Sequence[str] = ()) -> dict[str, str]:
    """`environ` with the variables that ask runners for per-test reports (and pin pytest's
    configuration: `pytest.config_pins`)."""
    env = extended(environ, pytest.env(report, extra_addopts, pins))
    env = extended(env, reports.env(report))
    env.update(go.env(env))
    env.update(nextest.env())
    return env


def read(output: str, report: str, records: Sequence[Any] | None = None) -> Counts | None:
    """The counts of the first runner whose report or summary is found, each test named where
    the runner's preload records (sent on the evidence channel; None: its report file) agree
    with its summary."""
    output = plain(output)
    for parse in PARSERS.values():
        counts = parse(output, report)
        if counts is not None:
            return reports.named(counts, report, records)
    return None
