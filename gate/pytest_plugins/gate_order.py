"""The gate's pytest plugin for a trial in another order than the project's: after
collection (and after the shard plugin's filter), run the tests reversed, or shuffled with a
seed: the test files in a seeded order, and the tests of each file in a seeded order, so that a
file's module-scoped fixtures are still set up once.

Loaded through PYTEST_PLUGINS=gate_order with this directory on PYTHONPATH; inert unless
GATE_ORDER is `reversed` or `shuffled:SEED`, and in a session a test starts (pytester, in
process or not, `pytest.main`): the order is the judged command's, and a plugin's own tests
that match an inner session's output line by line (pytest-dev/pytest-repeat) must see the
order they asked for. Standard library only: the gate is not installed where pytest runs."""
from __future__ import annotations

import os
import random
from typing import Any

import pytest


def _file(item: Any) -> str:
    return str(item.nodeid.split("::", 1)[0])


def _shuffled(items: list[Any], seed: int) -> list[Any]:
    rng = random.Random(seed)
    files: dict[str, list[Any]] = {}
    for item in items:
        files.setdefault(_file(item), []).append(item)
    order = list(files)
    rng.shuffle(order)
    out: list[Any] = []
    for name in order:
        tests = files[name]
        rng.shuffle(tests)
        out.extend(tests)
    return out


def _own(config: Any) -> bool:
    """The judged command's own session, or one of its xdist workers: the one that writes
    the gate's report (GATE_JUNIT; gate_sessions takes it from a session a test starts in
    process, and pytester runs without PYTEST_ADDOPTS, so without the report)."""
    report = os.environ.get("GATE_JUNIT")
    path = getattr(config.option, "xmlpath", None)
    return not report or (bool(path) and str(path).startswith(report))


@pytest.hookimpl(trylast=True)  # after every filter (the shard plugin, -k, deselection)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    how = os.environ.get("GATE_ORDER", "") if _own(config) else ""
    if how == "reversed":
        items.reverse()
    elif how.startswith("shuffled:") and how[len("shuffled:"):].isdigit():
        items[:] = _shuffled(items, int(how[len("shuffled:"):]))
