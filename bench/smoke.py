"""What `bench/run --quick`, the benchmarks' smoke test, shares between its measurements so that
it takes under a minute: one fixture project, built once and copied for every step that runs
the gate (the same base SHA, so the base's suite runs once and its outcomes are then cached for
all), one cache directory for the gate and the installers (warmed by the base's installs, as a
user's are), the order the steps start in, and the check that each gate run still passes (the
figures it prints are not comparable: they say only that each path still runs); and the
gate runs that several steps make alike, made once for all of them (`once`)."""
from __future__ import annotations

import shutil
import threading
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import fixtures

FILES, SUITE_S = 10, 0.3  # the shared project: 10 test files whose suite sleeps 0.3 s in all
_SHARED = "smoke-project"
T = TypeVar("T")
_made: dict[tuple[str, ...], Any] = {}
_locks: dict[tuple[str, ...], threading.Lock] = {}
_locks_lock = threading.Lock()
# Longest first, so that the last two do not finish one after the other; `sharded` (its own
# cache entries) and `scoped_base_tests` (one short run) first: the latter fills the cache
# with the base's outcomes for the runs that follow.
ORDER = ("sharded", "scoped_base_tests", "caches", "base_outcomes", "floor", "overhead",
         "pinned", "isolation", "sealed", "varied", "parallel_runs", "latency", "quick_check",
         "environment_creation", "memory", "scan_throughput", "evidence", "go_witness")


def prepare(work: Path, env: dict[str, str]) -> dict[str, str]:
    """The shared project and cache in `work`; `env` with the cache (the gate's base outcomes,
    uv's and pip's caches under it, made now so that the gate names them in its boundary)."""
    fixtures.python_project(work / _SHARED, files=FILES, suite_seconds=SUITE_S)
    cache = work / "smoke-cache"
    for name in ("uv", "pip"):
        (cache / name).mkdir(parents=True)
    return {**env, "XDG_CACHE_HOME": str(cache)}


def project(work: Path, name: str, quick: bool, **shape: Any) -> tuple[str, str]:
    """The fixture project of `shape` (fixtures.python_project's keywords) at `work/name`; under
    --quick a copy of the shared one instead (whatever the shape). Returns (base, head) SHAs."""
    if not quick:
        return fixtures.python_project(work / name, **shape)
    shutil.copytree(work / _SHARED, work / name, symlinks=True)
    base, head = (fixtures.git(work / name, "rev-parse", ref).strip() for ref in ("main", "change"))
    return base, head


def passed(step: str, report: dict[str, Any]) -> dict[str, Any]:
    """`report`, if the gate's verdict was a pass; else the smoke test fails, naming the
    checks that did not pass (a figure from a broken run would mean nothing)."""
    if report["verdict"] != "pass":
        bad = [f"{c['id']}: {c['status']}: {c['summary']}" for c in report["checks"]
               if c["status"] not in ("passed", "skipped")]
        raise SystemExit(f"{step}: the gate's run gave {report['verdict']}: {'; '.join(bad)}")
    return report


def once(args: tuple[str, ...], run: Callable[[], T]) -> T:
    """What `run` gives, the gate run `args` on (a copy of) the shared project, made once for
    every step that asks for the same `args`: a step that asks while another's run is under
    way waits for it. (A run that failed is made again by the next step.)"""
    with _locks_lock:
        lock = _locks.setdefault(args, threading.Lock())
    with lock:
        if args not in _made:
            _made[args] = run()
        return typing.cast(T, _made[args])
