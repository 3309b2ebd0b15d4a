"""The gate's pytest plugin for `gate run --shard I/N`: after pytest's own collection, keep
the items of the test files that fall to shard I (files balanced by recorded durations, else
by their number of tests), deselect the others, and write the whole split to a file, so that
`gate merge` can check every shard split the same collection the same way.

Loaded through PYTEST_PLUGINS=gate_shard_plugin with this directory on PYTHONPATH;
inert unless GATE_SHARD is set. The gate is not installed where pytest runs: this file uses the
standard library and the gate's `shards/balance.py`, loaded by its path."""
from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_HERE = os.path.dirname(os.path.abspath(__file__))
_EMPTIED: dict[int, bool] = {}  # id(config) -> every item fell to other shards (any pytest)


def _balance() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gate_shard_balance", os.path.join(os.path.dirname(_HERE), "shards", "balance.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mapping(path: str | None, kind: Callable[[Any], T]) -> dict[str, T]:
    """A JSON object of names to numbers; anything that does not read is empty."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {str(k): kind(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
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
    weights = balance.weigh(counts, _mapping(os.environ.get("GATE_SHARD_DURATIONS"), float))
    shares = balance.assign(weights, total)
    keep = [i for i in items if shares[i.nodeid.split("::", 1)[0]] == index - 1]
    dropped = [i for i in items if shares[i.nodeid.split("::", 1)[0]] != index - 1]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
    _EMPTIED[id(config)] = bool(dropped) and not keep
    out = os.environ.get("GATE_SHARD_SPLIT")
    if out:  # a command may run pytest more than once: each session adds its files
        whole = {**_mapping(out, int), **{unit: share + 1 for unit, share in shares.items()}}
        with open(out, "w", encoding="utf-8") as f:
            json.dump(dict(sorted(whole.items())), f)


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    """Every item of this session fell to other shards: pytest would exit 5 ("no tests
    collected") and stop a command such as `pytest a && pytest b` before its next session."""
    if exitstatus == 5 and _EMPTIED.get(id(session.config), False):
        session.exitstatus = 0
