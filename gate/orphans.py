"""Daemons that escaped both the process group and the marker, handed back to the gate.

A command's process that leaves its session (`setsid`) *and* empties its environment
(`env -i`) escapes `reaper.kill_marked`. On Linux the gate's command line makes itself a
"child subreaper" (prctl PR_SET_CHILD_SUBREAPER): such a process, once its parent dies, becomes
the gate's child instead of init's. When a run ends no command of the gate is running, so a
child of the gate in a session of its own can only be one of those, and is killed. (The gate's
own git commands stay in its session; the fetch that deepens a shallow clone, which may leave
git's maintenance running detached in the user's repository, runs before the gate adopts.)

Only the command line adopts: a program that calls the Python API keeps its process as it is.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
_adopting = False


def adopt() -> bool:
    """Make this process the subreaper of its descendants; False where that is not possible
    (not Linux), and then `kill` does nothing."""
    global _adopting
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # only here: the pre-commit hook does not pay for it

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _adopting = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _adopting = False
    return _adopting


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent pid, session id) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[3])


def _escaped() -> list[int]:
    me, session = os.getpid(), os.getsid(0)
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            stat = _stat(pid)
            if stat is not None and stat[0] == me and stat[1] != session:
                found.append(int(pid))
    return found


def kill(rounds: int = 20) -> list[int]:
    """Kill and reap the gate's children that live in a session of their own (again, as a
    killed daemon's own children are handed to the gate in turn); their pids."""
    killed: list[int] = []
    for _ in range(rounds if _adopting else 0):
        pids = _escaped()
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            killed.append(pid)
    return killed
