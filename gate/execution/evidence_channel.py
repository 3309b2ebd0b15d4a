"""The gate's side of the evidence channel (`gate/pytest_plugins/gate_evidence.py` is the
judged process's): a FIFO the gate makes and opens for reading before the judged command
starts, and reads on a thread of its own while the command runs. Every line that arrives is
kept with the order it came in; what the command writes anywhere else, or after it ended,
is not read from here.

    with evidence_channel.opened(path) as channel:
        completed = process.run_argv(..., env={**env, "GATE_EVIDENCE": path})
    lines = channel.lines  # complete once the block has ended

The FIFO lies in the run's scratch directory, where the boundary binds the files that exist
before a command starts read-only (`Workspace.scratch_files`): the command can write to it,
not remove or replace it. The gate keeps a writer of its own open while the command runs, so
that a recorder that closes its end does not end the reading; once the command has ended
(its processes killed), that writer is closed and the rest is read up to the end of the data.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
from collections.abc import Iterator

LINE_LIMIT = 1 << 20  # a line longer than this is cut (and so does not read)
TOTAL_LIMIT = 64 << 20  # what is read at most; past it the rest is counted, not kept
DRAIN_S = 5.0  # after the command ended: how long a writer that outlived it is waited for


@dataclasses.dataclass
class Channel:
    path: str
    lines: list[bytes] = dataclasses.field(default_factory=list)
    dropped: int = 0  # bytes past TOTAL_LIMIT
    held_open: bool = False  # a writer outlived the command: the rest was not waited for
    closed: bool = False  # nothing read after this is kept

    def _read(self, fd: int) -> None:
        pending = b""
        kept = 0
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            if self.closed:
                break
            if kept >= TOTAL_LIMIT:
                self.dropped += len(chunk)
                continue
            kept += len(chunk)
            pending += chunk
            *whole, pending = pending.split(b"\n")
            self.lines.extend(line[:LINE_LIMIT] for line in whole)
            if len(pending) > LINE_LIMIT:
                self.lines.append(pending[:LINE_LIMIT])
                pending = b""
        if pending:
            self.lines.append(pending[:LINE_LIMIT])  # no newline: a line cut short


@contextlib.contextmanager
def opened(path: str) -> Iterator[Channel]:
    """A new FIFO at `path`, read while the block runs; removed after it."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    os.mkfifo(path, 0o600)
    channel = Channel(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    writer = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    os.set_blocking(reader, True)
    thread = threading.Thread(target=channel._read, args=(reader,), daemon=True)
    thread.start()
    try:
        yield channel
    finally:
        os.close(writer)
        thread.join(DRAIN_S)
        channel.held_open = thread.is_alive()
        channel.closed = True  # a writer that outlived the command adds nothing more
        if not channel.held_open:
            os.close(reader)
        with contextlib.suppress(OSError):
            os.unlink(path)
