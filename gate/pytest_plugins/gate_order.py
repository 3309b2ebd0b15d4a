"""The gate's pytest plugin for a trial in another order than the project's: after
collection (and after the shard plugin's filter), run the tests reversed, or shuffled with a
seed: the test files in a seeded order, and the tests of each file in a seeded order, so that a
file's module-scoped fixtures are still set up once.

Loaded through PYTEST_PLUGINS=gate_order with this directory on PYTHONPATH; inert unless
GATE_ORDER is `reversed` or `shuffled:SEED`. Standard library only: the gate is not installed
where pytest runs."""
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


@pytest.hookimpl(trylast=True)  # after every filter (the shard plugin, -k, deselection)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    how = os.environ.get("GATE_ORDER", "")
    if how == "reversed":
        items.reverse()
    elif how.startswith("shuffled:") and how[len("shuffled:"):].isdigit():
        items[:] = _shuffled(items, int(how[len("shuffled:"):]))
