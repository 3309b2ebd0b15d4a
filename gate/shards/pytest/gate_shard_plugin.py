"""The gate's pytest plugin for `gate run --shard I/N`: after pytest's own collection, keep
the items of the test files that fall to shard I (files balanced by recorded durations, else
by their number of tests), deselect the others, and write the whole split to a file, so that
`gate merge` can check every shard split the same collection the same way.

Loaded through PYTEST_PLUGINS=gate_shard_plugin with this directory on PYTHONPATH;
inert unless GATE_SHARD is set. The gate is not installed where pytest runs: this file uses the
standard library and the gate's `balance.py`, loaded from beside it."""
from __future__ import annotations

import importlib.util
import json
import os
from typing import Any

_HERE = os.path.dirname(os.path.abspath(__file__))


def _balance() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gate_shard_balance", os.path.join(os.path.dirname(_HERE), "balance.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seconds(path: str | None) -> dict[str, float]:
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {str(k): float(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    spec = os.environ.get("GATE_SHARD")
    if not spec:
        return
    index, total = (int(n) for n in spec.split("/"))
    counts: dict[str, int] = {}
    for item in items:
        unit = item.nodeid.split("::", 1)[0]
        counts[unit] = counts.get(unit, 0) + 1
    balance = _balance()
    weights = balance.weigh(counts, _seconds(os.environ.get("GATE_SHARD_DURATIONS")))
    shares = balance.assign(weights, total)
    keep = [i for i in items if shares[i.nodeid.split("::", 1)[0]] == index - 1]
    dropped = [i for i in items if shares[i.nodeid.split("::", 1)[0]] != index - 1]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
    out = os.environ.get("GATE_SHARD_SPLIT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump({unit: share + 1 for unit, share in sorted(shares.items())}, f)
