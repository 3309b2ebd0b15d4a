"""The full output of every command the gate runs, one file per command, in a directory the
caller chose (`gate run --logs DIR`; the Action uploads it as an artifact).

Files are numbered in the order the commands started (`01-install.log`,
`02-suite-run-1.log`, ...). Each holds the command, where it ran, everything it printed (not
cut, unlike the report's bounded excerpts) and how it ended. They are written by the gate's
own process from the command's pipe: the command never holds the file. A file is only ever
made new (never a file or a link that is already there: the judged code, which may know the
directory, cannot point a log at something else), so the directory must be new or empty.
"""
from __future__ import annotations

import itertools
import os
import re
import threading
from typing import IO

from gate.errors import GateError


class Logs:
    def __init__(self, directory: str) -> None:
        self.directory = directory
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def path(self, name: str) -> str:
        """A new file for the command called `name` (install, suite-run-2, check-lint...)."""
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "command"
        with self._lock:
            number = next(self._numbers)
        return os.path.join(self.directory, f"{number:02d}-{safe}.log")


def prepare(directory: str) -> Logs:
    """The directory, made if missing: checked before the run starts, so a bad path costs
    nothing (exit 2 at once), not the whole run."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise GateError(f"--logs {directory}: cannot make the directory ({e.strerror}): "
                        "give a directory the gate may write to") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise GateError(f"--logs {directory}: the directory is not writable: give a directory "
                        "the gate may write to")
    if os.listdir(directory):
        raise GateError(f"--logs {directory}: the directory is not empty, and the gate does "
                        "not overwrite files: give a new or empty directory")
    return Logs(directory)


def open_new(path: str) -> IO[bytes]:
    """`path`, made new for writing; an existing file or link there is an error."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except FileExistsError:
        raise GateError(f"the log {path} was already there: something other than the gate "
                        "writes into the logs directory (the judged code?); the run is not "
                        "judged. Give --logs a directory out of the project's reach") from None
    return os.fdopen(fd, "wb", buffering=0)  # as it comes: a hanging command's log shows it


def header(sink: IO[bytes], command: str, cwd: str) -> None:
    sink.write(f"$ {command}\n# in {cwd}\n\n".encode())


def footer(sink: IO[bytes], returncode: int | None, timed_out: bool, seconds: float) -> None:
    how = "timed out and was killed" if timed_out else f"exit {returncode}"
    sink.write(f"\n# {how} after {seconds:.1f}s\n".encode())
