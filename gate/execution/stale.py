"""Temporary roots left behind by gate runs that were killed (SIGKILL, power loss).

Each run writes its owner (pid and the process's start time, so that a reused pid is not taken
for the owner) into its root. The next run removes every root whose owner is gone, after
killing the processes that run left behind. A root without an owner file is one being made
right now by another run, and is left alone: runs share no path and take no lock.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable

OWNER_FILE = ".gate-owner"
SIBLING = ".venv"  # the run's fresh environment, beside its root: `<root>.venv`
LAYERS = ".layers"  # the trials' own files, beside its root (an overlay's layers may not
# lie inside the directory it shows, and each command sees the root through one)
SIBLINGS = (SIBLING, LAYERS)


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot ("?" where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return "" if os.path.isdir("/proc/self") else "?"
    except OSError:
        return "?"
    return stat.rsplit(b")", 1)[1].split()[19].decode()


def owner() -> str:
    """What identifies this process: its pid and start time."""
    return f"{os.getpid()} {_start_time(os.getpid())}"


def claim(root: str) -> None:
    """Write this process's identity into `root`, atomically (a rename)."""
    partial = os.path.join(root, OWNER_FILE + ".partial")
    with open(partial, "w", encoding="ascii") as f:
        f.write(owner() + "\n")
    os.replace(partial, os.path.join(root, OWNER_FILE))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def is_abandoned(root: str) -> bool:
    """Whether the run that made `root` is gone; False when it cannot be told."""
    try:
        with open(os.path.join(root, OWNER_FILE), encoding="ascii") as f:
            pid_text, started = f.read().split()
        pid = int(pid_text)
    except (OSError, ValueError):
        return False
    if not _alive(pid):
        return True
    now = _start_time(pid)
    return now not in ("?", started)


def clean(tempdir: str, prefix: str, before_removal: Callable[[str], None]) -> list[str]:
    """Remove the abandoned roots named `prefix*` in `tempdir`; `before_removal(root)` runs
    first (it kills the processes the dead run left). Return the roots removed."""
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempdir):
            if (not entry.name.startswith(prefix) or entry.name.endswith(SIBLINGS)
                    or not entry.is_dir(follow_symlinks=False)):
                continue
            if is_abandoned(entry.path):
                before_removal(entry.path)
                shutil.rmtree(entry.path, ignore_errors=True)
                for sibling in SIBLINGS:
                    shutil.rmtree(entry.path + sibling, ignore_errors=True)
                removed.append(entry.path)
    return removed
