"""Every process a command started, found by a marker in its environment, and killed.

Killing a command's process group is not enough: a daemon that called `setsid` has left the
group. But every process inherits its environment, so each command is given a variable of its
own (`GATE_CMD_<token>=1`) and each gate run another (`GATE_RUN_<id>=1`); afterwards every
process whose `/proc/PID/environ` holds the marker is killed. A process that empties its own
environment *and* leaves the session escapes this; see docs/how-it-works.md, "Known limits".
Where there is no /proc (macOS), only the process group is killed.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator, Mapping

PROC = "/proc"


def new_marker(kind: str) -> str:
    """A variable name no other process carries: `GATE_<KIND>_<random hex>`."""
    return f"GATE_{kind}_{os.urandom(8).hex()}"


def _environ(pid: str) -> bytes:
    try:
        with open(os.path.join(PROC, pid, "environ"), "rb") as f:
            return f.read()
    except OSError:  # gone, a zombie, or another user's process
        return b""


def marked(variable: str) -> list[int]:
    """The processes (other than this one) whose environment holds `variable`."""
    try:
        entries = os.listdir(PROC)
    except OSError:
        return []
    needle = variable.encode() + b"="
    me = os.getpid()
    found = []
    for pid in entries:
        if not pid.isdigit() or int(pid) == me:
            continue
        environ = _environ(pid)
        if environ.startswith(needle) or b"\0" + needle in environ:
            found.append(int(pid))
    return found


def kill_marked(variable: str, patience: float = 5.0) -> list[int]:
    """SIGKILL every process marked with `variable`, again until none is left (a process may
    fork while the others die); return the pids that were killed."""
    killed: list[int] = []
    deadline = time.monotonic() + patience
    while True:
        pids = marked(variable)
        if not pids or time.monotonic() > deadline:
            return killed
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                if pid not in killed:
                    killed.append(pid)
        time.sleep(0.01)


_ENDED: set[str] = set()  # the run markers whose commands were ended: none starts again
_STARTING = threading.Lock()  # held from the check to the start, and while a run is ended


@contextlib.contextmanager
def starting(env: Mapping[str, str]) -> Iterator[bool]:
    """Whether a command with `env` may start (False: its run was ended, `end`), held until
    it has started: an `end` that comes after it finds it and kills it. Without this, a thread
    of the run between two commands (the base's, after its install) started its next one
    after the run was ended, and the gate waited for its `sleep 600` on Ctrl-C or SIGTERM."""
    with _STARTING:
        yield not any(marker in env for marker in _ENDED)


def end(variable: str) -> list[int]:
    """`kill_marked(variable)`, and no command marked with it starts from now on."""
    with _STARTING:
        _ENDED.add(variable)
    return kill_marked(variable)

