"""Split weighted units (test files, packages) into N shares of nearly equal weight: the
heaviest unit first, each to the lightest share (longest processing time first), ties broken
by name so that every shard computes the same split.

Standard library only: the gate's pytest plugin loads this file inside the judged
environment, where the gate itself is not installed."""
from __future__ import annotations

from collections.abc import Mapping


def assign(weights: Mapping[str, float], total: int) -> dict[str, int]:
    """Each unit's share, 0-based."""
    loads = [0.0] * total
    out: dict[str, int] = {}
    for unit in sorted(weights, key=lambda u: (-weights[u], u)):
        share = min(range(total), key=lambda i: (loads[i], i))
        out[unit] = share
        loads[share] += weights[unit]
    return out


def weigh(counts: Mapping[str, int], seconds: Mapping[str, float]) -> dict[str, float]:
    """Each unit's weight: its recorded seconds, or where it has none (a new file nobody has
    timed) its number of tests times the mean seconds per test of the timed ones; with no
    time recorded at all, its number of tests."""
    timed = {u: s for u, s in seconds.items() if u in counts and s > 0}
    tests_timed = sum(counts[u] for u in timed)
    per_test = sum(timed.values()) / tests_timed if tests_timed else 1.0
    return {u: timed.get(u, n * per_test) for u, n in counts.items()}
