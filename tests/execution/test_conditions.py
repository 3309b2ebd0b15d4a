"""The varied run's conditions as a command sees them (gate/execution/conditions.py): the clock a
year ahead, the checkout's files a month old; and nothing else that tells it from a usual run,
nor a usual run from the machine's own (issue 50): the machine's host name, process ids
where the machine's are, no memory limit, no variable and no file of the clock's."""
from __future__ import annotations

import dataclasses
import json
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gate.execution import bwrap, conditions, isolation, process

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")
# gate: allow skip-markers -- libfaketime ships for x86-64 Linux only, and says so
needs_clock = pytest.mark.skipif(conditions.faketime_library() is None,
                                 reason="libfaketime cannot run here (x86-64 Linux only)")

SEEN = """\
import base64, json, os, resource, socket, time
start = time.monotonic()
time.sleep(0.05)
preload = base64.b64decode("L2V0Yy9sZC5zby5wcmVsb2Fk").decode()  # the name built at run time
print(json.dumps({"now": time.time(), "slept": time.monotonic() - start,
                  "mtime": os.stat("code.py").st_mtime, "host": socket.gethostname(),
                  "resolves": socket.gethostbyname(socket.gethostname()),
                  "limit": resource.getrlimit(resource.RLIMIT_DATA)[0],
                  "pid": os.getpid(), "preload": os.path.exists(preload),
                  "shm": os.listdir("/dev/shm"), "env": dict(os.environ)}))
"""
VARIED = conditions.Conditions(clock_days=365, files_days=30)
PRELOAD = str(Path(conditions.__file__).parents[1] / "preload" / "python")


def _seen(tmp_path: Path, boundary: isolation.Boundary,
          under: conditions.Conditions, preload: bool = True) -> dict[str, Any]:
    """What a command of a run in `tmp_path` under `under` sees, through `process.run_argv`
    as the gate starts a test command (the memory watch and, with `preload`, the gate's
    Python preload on PYTHONPATH, included)."""
    root = tmp_path / "run"
    checkout = root / "checkout"
    checkout.mkdir(parents=True, exist_ok=True)
    (root / "tmp").mkdir(exist_ok=True)
    (checkout / "code.py").write_text("x = 1\n")
    (checkout / "seen.py").write_text(SEEN)

    over = [str(checkout)] if boundary.overlays else []  # as after the install

    def wrap(argv: Sequence[str], cwd: str) -> list[str]:
        return boundary.wrap(argv, root=str(root), cwd=cwd, tmp=str(root / "tmp"),
                             own=[] if over else [str(checkout)], layered=over, under=under)

    done = process.run_argv([sys.executable, "seen.py"], cwd=str(checkout),
                            env={"PATH": "/usr/bin:/bin", "HOME": str(root),
                                 **({"PYTHONPATH": PRELOAD} if preload else {})}, timeout=60,
                            wrap=wrap, memory_kb=under.memory_kb(process.MEMORY_LIMIT_KB))
    assert done.ok, done.output
    seen: dict[str, Any] = json.loads(done.output.strip().splitlines()[-1])
    return seen


@needs_boundary
@needs_clock
def test_the_varied_run_differs_only_in_the_clock_and_the_files(tmp_path: Path) -> None:
    boundary = isolation.choose("required")
    floor = bwrap.last_pid()
    usual = _seen(tmp_path / "usual", boundary, conditions.USUAL)
    varied = _seen(tmp_path / "varied", boundary, VARIED)
    year = 365 * 86400
    assert abs(float(usual["now"]) - time.time()) < 60
    assert abs(float(varied["now"]) - time.time() - year) < 60
    # the monotonic clock is left alone: a sleep takes its time, not a year
    assert 0.04 < float(varied["slept"]) < 30
    for seen in (usual, varied):  # as the machine's own run sees it
        assert seen["host"] == socket.gethostname()
        assert seen["resolves"] == socket.gethostbyname(socket.gethostname())
        assert seen["limit"] == -1  # RLIM_INFINITY: the memory is watched from outside
        assert int(seen["pid"]) > floor  # the machine's process ids go on, not from 1
        assert seen["preload"] is False and seen["shm"] == []
    # the same environment: no LD_PRELOAD, FAKETIME, DONT_FAKE_MONOTONIC, FAKETIME_SHARED,
    # no marker of the gate's reaper
    assert set(varied["env"]) == set(usual["env"]) == {"PATH", "HOME", "PYTHONPATH", "PWD",
                                                       "LC_CTYPE"}


@needs_boundary
@needs_clock
def test_without_the_defences_a_run_tells_itself(tmp_path: Path) -> None:
    """The twins: a PID namespace counted from 1 (no `bwrap.CHAIN`), a host name the gate
    names, and the varied run's variables where the preload does not take them out."""
    boundary = isolation.choose("required")
    assert boundary.counted is not None  # this machine has unshare --map-user and setpriv
    bare = dataclasses.replace(boundary, counted=None)
    assert int(_seen(tmp_path / "bare", bare, conditions.USUAL)["pid"]) < 10
    named = _seen(tmp_path / "named", boundary, conditions.Conditions(hostname="runner"))
    assert (named["host"], named["resolves"]) == ("runner", "127.0.1.1")
    raw = _seen(tmp_path / "raw", boundary, VARIED, preload=False)
    assert {"FAKETIME_SHARED", "LD_PRELOAD", "FAKETIME"} <= set(raw["env"])
    assert raw["shm"] != []


@needs_boundary
def test_the_checkouts_files_are_a_month_old_only_in_the_varied_run(tmp_path: Path) -> None:
    """The writes go with the command's overlay where the boundary has them: the file on disk
    keeps its time, and the next usual command sees it new."""
    boundary = isolation.choose("required")
    if not boundary.overlays:
        aged = conditions.possible(True, False)
        assert aged.files_days == 0  # not made where the writes would stay
        return
    varied = _seen(tmp_path, boundary, conditions.Conditions(files_days=30))
    month = 30 * 86400
    assert abs(time.time() - float(varied["mtime"]) - month) < 120
    on_disk = (tmp_path / "run" / "checkout" / "code.py").stat().st_mtime
    assert time.time() - on_disk < 120


def test_each_condition_alone_and_how_it_is_said() -> None:
    assert [c.describe() for c in VARIED.singles()] == [
        "the clock 365 days ahead", "the checkout's files 30 days old"]
    assert not conditions.USUAL and VARIED
    off = conditions.possible(False, False)  # no boundary: no files' age; the machine's name
    assert (off.hostname, off.files_days, off.unlimited) == ("", 0, False)


@needs_clock
def test_the_clock_leaves_nothing_in_the_machines_shared_memory(tmp_path: Path) -> None:
    """libfaketime names its shared memory after a command's first process and removes it
    only when that process exits without exec-ing another program, as a shell running a test
    command does: without the boundary, each such varied command left two files in /dev/shm
    (774 on this machine after a day of the gate's tests)."""
    boundary = isolation.choose("off")
    # the shell execs Python: the same process, which says its id and its clock
    argv = ["/bin/sh", "-c", 'exec "$0" -c "import os, time; print(os.getpid(), time.time())"',
            sys.executable]
    done = process.run_argv(argv, cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"},
                            timeout=60, wrap=lambda a, cwd: boundary.wrap(
                                a, root=str(tmp_path), cwd=cwd, tmp=None, under=VARIED))
    pid, now = done.output.split()[-2:]
    assert abs(float(now) - time.time() - 365 * 86400) < 60, done.output
    # named after the first process with the library: the one the shell became (`env` execs)
    left = [n for n in (f"faketime_shm_{pid}", f"sem.faketime_sem_{pid}")
            if (Path("/dev/shm") / n).exists()]
    assert left == []
