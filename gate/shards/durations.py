"""Test seconds by unit (test file; for go, package directory), read from earlier reports: what
balances the shards. A file the merge writes (`gate merge --durations-out`) and a later
`gate run --shard --durations` reads; the Action keeps it in its cache between runs."""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping

from gate.errors import GateError
from gate.outcomes.record import CaseResult

FORMAT = 1


def load(path: str) -> dict[str, float]:
    """The seconds in `path`; empty when the file is absent (a first run: split by counts)."""
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        seconds = data["seconds"]
        return {str(unit): float(s) for unit, s in seconds.items() if float(s) >= 0}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise GateError(f"--durations {path}: not a durations file of `gate merge "
                        f"--durations-out` ({e}); remove it or pass another") from e


def from_cases(cases: Iterable[CaseResult]) -> dict[str, float]:
    """Each test file's seconds: the sum of its tests' (those whose runner gave both)."""
    out: dict[str, float] = {}
    for case in cases:
        if case.file is not None and case.seconds is not None:
            out[case.file] = round(out.get(case.file, 0.0) + case.seconds, 3)
    return out


def save(path: str, seconds: Mapping[str, float]) -> None:
    partial = f"{path}.{os.getpid()}.partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "seconds": dict(sorted(seconds.items()))}, f, indent=1)
    os.replace(partial, path)
