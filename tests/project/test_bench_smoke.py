"""bench/smoke.py, what `bench/run --quick` shares between its steps: one project copied (the
same SHAs, so the base's outcomes cached by one step serve the others), a gate run made once
for the steps that ask for the same one, and a smoke test that fails on a run that did not pass."""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fixtures
import smoke


def test_quick_copies_of_the_shared_project_have_its_base_and_head(tmp_path: Path) -> None:
    env = smoke.prepare(tmp_path, {"PATH": "/usr/bin"})
    first = smoke.project(tmp_path, "one", True, files=50, suite_seconds=2.0)
    second = smoke.project(tmp_path, "two", True, files=3, suite_seconds=9.0, busy=True)
    assert first == second and first[0] != first[1]
    assert len(list((tmp_path / "two" / "tests").glob("test_*.py"))) == smoke.FILES
    assert fixtures.git(tmp_path / "two", "rev-parse", "main").strip() == first[0]
    cache = Path(env["XDG_CACHE_HOME"])
    assert (cache / "uv").is_dir() and (cache / "pip").is_dir()


def test_a_full_run_builds_the_shape_it_asks_for(tmp_path: Path) -> None:
    smoke.prepare(tmp_path, {})
    shared = smoke.project(tmp_path, "copy", True)
    own = smoke.project(tmp_path, "own", False, files=3, suite_seconds=0.1)
    assert own != shared
    assert len(list((tmp_path / "own" / "tests").glob("test_*.py"))) == 3


def test_a_run_asked_for_by_two_steps_at_once_is_made_once() -> None:
    made: list[str] = []

    def run(name: str) -> dict[str, Any]:
        time.sleep(0.2)  # the second step asks while the first's run is under way
        made.append(name)
        return {"made_by": name}

    args = ("--bench-test", str(time.monotonic_ns()))
    got: list[dict[str, Any]] = []
    steps = [threading.Thread(target=lambda n=n: got.append(smoke.once(args, lambda: run(n))))
             for n in ("a", "b")]
    for step in steps:
        step.start()
    for step in steps:
        step.join()
    assert len(made) == 1 and got[0] is got[1]
    other = smoke.once((*args, "--other"), lambda: run("c"))
    assert other == {"made_by": "c"} and len(made) == 2


def test_a_run_that_failed_is_made_again_by_the_next_step() -> None:
    args = ("--bench-test-fails", str(time.monotonic_ns()))
    tries: list[int] = []

    def run() -> int:
        tries.append(1)
        if len(tries) == 1:
            raise SystemExit("the first run broke")
        return len(tries)

    with pytest.raises(SystemExit):
        smoke.once(args, run)
    assert smoke.once(args, run) == 2 and smoke.once(args, run) == 2


def _report(verdict: str, status: str) -> dict[str, Any]:
    return {"verdict": verdict, "checks": [
        {"id": "install", "status": "passed", "summary": "installed"},
        {"id": "suite", "status": status, "summary": "1 of 3 runs failed"}]}


def test_the_smoke_test_fails_on_a_gate_run_that_did_not_pass() -> None:
    with pytest.raises(SystemExit) as failed:
        smoke.passed("floor", _report("fail", "failed"))
    assert str(failed.value) == "floor: the gate's run gave fail: suite: failed: 1 of 3 runs failed"
    report = _report("pass", "passed")
    assert smoke.passed("floor", report) is report
