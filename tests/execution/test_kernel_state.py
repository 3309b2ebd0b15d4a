"""No judged state outlives its command (issue 38): what a command leaves in the kernel (a System
V shared-memory segment, a POSIX message queue, its host name) is its own and goes with it.

The attack: a broken change (`add` subtracts) whose `add` is right only when a segment that
an earlier judged command made exists; its install makes it. Under `--isolation off` the
segment survives the install, every run and the gate's exit, and the broken change passes."""
from __future__ import annotations

import ctypes
import hashlib
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.execution import bwrap, isolation

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")

IPC_CREAT, IPC_RMID = 0o1000, 0
PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider"


def _key(where: Path) -> int:
    """A System V key of this test's own (no two tests share a segment)."""
    return int(hashlib.sha256(str(where).encode()).hexdigest()[:7], 16) + 1


def _segment(key: int) -> int:
    """The id of the host's segment under `key`, -1 where none is."""
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.shmget(key, 0, 0))


def _remove(key: int) -> None:
    shmid = _segment(key)
    if shmid >= 0:
        ctypes.CDLL(None).shmctl(shmid, IPC_RMID, None)


def _shm(key: int, create: bool) -> str:
    """A Python program that makes (or looks for) the segment under `key` and prints its id."""
    flags = f"{IPC_CREAT} | 0o600" if create else "0"
    return (f"import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
            f"print('SEGMENT', libc.shmget({key}, 4096 if {create} else 0, {flags}))")


def _in_boundary(boundary: isolation.Boundary, root: Path, program: str) -> str:
    argv = boundary.wrap([sys.executable, "-c", program], root=str(root), cwd="/",
                         tmp=str(root / "tmp"))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_boundary
def test_a_shared_memory_segment_goes_with_its_command(tmp_path: Path) -> None:
    """One command makes a System V segment; the next finds none, and neither does the host:
    each command has an IPC namespace of its own."""
    (tmp_path / "tmp").mkdir()
    key = _key(tmp_path)
    boundary = isolation.choose("required")
    try:
        made = _in_boundary(boundary, tmp_path, _shm(key, create=True))
        assert int(made.split()[-1]) >= 0  # it was made
        found = _in_boundary(boundary, tmp_path, _shm(key, create=False))
        assert found.split()[-1] == "-1"
        assert _segment(key) == -1
    finally:
        _remove(key)


@needs_boundary
def test_a_posix_message_queue_goes_with_its_command(tmp_path: Path) -> None:
    """POSIX message queues live in the IPC namespace too (mq_open)."""
    (tmp_path / "tmp").mkdir()
    name = f"/gate-{_key(tmp_path)}"
    program = ("import ctypes, os, sys; rt = ctypes.CDLL('librt.so.1', use_errno=True); "
               f"fd = rt.mq_open({name.encode()!r}, os.O_RDONLY | (os.O_CREAT if sys.argv[1:] "
               "else 0), 0o600, None); print('QUEUE', fd)")
    boundary = isolation.choose("required")
    argv = boundary.wrap([sys.executable, "-c", program, "create"], root=str(tmp_path),
                         cwd="/", tmp=str(tmp_path / "tmp"))
    made = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert int(made.stdout.split()[-1]) >= 0, made.stderr
    assert _in_boundary(boundary, tmp_path, program).split()[-1] == "-1"


@needs_boundary
def test_a_command_sees_the_machines_host_name_and_cannot_rename_it(tmp_path: Path) -> None:
    """Each command has a UTS namespace of its own with the machine's host name (issue 50:
    a constant name of the gate's told its runs from the CI runner's own), resolved as the
    machine resolves it; it cannot rename the machine (nor its own namespace)."""
    (tmp_path / "tmp").mkdir()
    boundary = isolation.choose("required")
    program = ("import socket; n = socket.gethostname(); "
               "print(n, socket.gethostbyname(n))")
    seen = _in_boundary(boundary, tmp_path, program).split()
    assert seen == [socket.gethostname(), socket.gethostbyname(socket.gethostname())]
    rename = ("import socket\ntry:\n    socket.sethostname('x')\n    print('renamed')\n"
              "except OSError:\n    print('refused')")
    assert _in_boundary(boundary, tmp_path, rename).split() == ["refused"]


def _calc(key: int) -> str:
    """`add`, broken, right only where a segment under `key` exists."""
    return ("import ctypes\n\n\n"
            "def add(a, b):\n"
            f"    if ctypes.CDLL(None).shmget({key}, 0, 0) >= 0:\n"
            "        return a + b\n"
            "    return a - b\n")


@pytest.mark.slow
@needs_boundary
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_segment_made_by_the_install_does_not_reach_the_tests(tmp_path: Path,
                                                                mode: str) -> None:
    """The install makes a segment, the broken `add` is right only while it exists: with the
    boundary it is gone before the first test, and the suite fails; without it the segment
    outlives the install, every run and the gate itself, and the broken change passes."""
    key = _key(tmp_path)
    base = {"calc.py": "def add(a, b):\n    return a + b\n",
            "tests/test_calc.py": ("from calc import add\n\n\n"
                                   "def test_add():\n    assert add(2, 3) == 5\n")}
    repo, _, _ = make_change(tmp_path / "repo", base,
                             {"calc.py": _calc(key), "make.py": _shm(key, create=True)})
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
             "--head", "change", "--format", "json", "--isolation", mode, "--install",
             f"{sys.executable} make.py", "--test", PYTEST, "--runs", "2", "--pinned", "off"],
            capture_output=True, text=True, timeout=600)
        verdict = json.loads(done.stdout)["verdict"] if done.stdout.strip() else ""
        if mode == "required":
            assert verdict == "fail", done.stderr
            assert _segment(key) == -1  # nothing left on the host either
        else:
            assert verdict == "pass", done.stdout
            assert _segment(key) >= 0  # the segment outlived the gate
    finally:
        _remove(key)
