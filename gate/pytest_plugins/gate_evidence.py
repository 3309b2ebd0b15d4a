"""The judged process's side of the evidence channel: what the gate's recorders (the session
plugin, the fingerprint, the unittest preload, the audit-hook watcher) say, sent to the gate
as it happens. The gate made the channel, a FIFO named by GATE_EVIDENCE, before the judged
process started, and reads it while the process runs: what the process writes afterwards in
files changes nothing, and what it never sends is missing evidence (gate/outcomes/evidence.py).

One JSON object a line, each written by one `write` (up to PIPE_BUF bytes a write is never
interleaved with another process's), tagged with the sending process. Inert where GATE_EVIDENCE
is unset (a run outside the gate). Standard library only: the gate is not installed where the
tests run."""
from __future__ import annotations

import json
import os
from typing import Any

_FD: list[int] = []  # [fd] once opened; [-1] where the channel cannot be opened
_PID: list[int] = []  # the process that opened it (a fork opens its own)
LIMIT = 4000  # under PIPE_BUF (4096 on Linux): one write, never interleaved


def _channel() -> int:
    if _PID and _PID[0] != os.getpid():  # a fork: its own descriptor (the same FIFO)
        _FD.clear()
    if not _FD:
        _PID[:] = [os.getpid()]
        path = os.environ.get("GATE_EVIDENCE", "")
        fd = -1
        if path:
            try:  # O_NONBLOCK: no reader (the gate gone) is ENXIO, never a hang
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                os.set_blocking(fd, True)  # a full pipe waits for the gate to read
            except OSError:
                fd = -1
        _FD.append(fd)
    return _FD[0]


def active() -> bool:
    """Whether the gate listens (GATE_EVIDENCE names its channel and it opens)."""
    return _channel() >= 0


def canonical(kind: str, fields: dict[str, Any]) -> bytes:
    """A message's kind and fields as the session's digest counts them (the gate counts what
    it received the same way)."""
    return (kind + ":" + json.dumps(fields, default=str, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=True) + "\n").encode("ascii")


def send(kind: str, **fields: Any) -> None:
    """Send one message {k: kind, p: pid, ...}. One longer than a single write goes as parts
    {k: "part", p, m: its number in this process, i, n, d: a slice of its text}, each a whole
    line, which the gate joins again."""
    fd = _channel()
    if fd < 0:
        return
    text = json.dumps({**fields, "k": kind, "p": os.getpid()}, default=str,
                      separators=(",", ":"), ensure_ascii=True)
    lines = [text]
    if len(text) >= LIMIT:
        _COUNT[0] += 1
        step = LIMIT // 3  # an escaped slice is at most twice as long, and the fields
        slices = [text[i:i + step] for i in range(0, len(text), step)]
        lines = [json.dumps({"k": "part", "p": os.getpid(), "m": _COUNT[0], "i": i,
                             "n": len(slices), "d": d}, separators=(",", ":"))
                 for i, d in enumerate(slices)]
    try:
        for line in lines:
            os.write(fd, line.encode("ascii") + b"\n")
    except OSError:
        pass


_COUNT = [0]  # the long messages this process sent in parts
