"""What a person watching `gate run` (or the pre-push hook) sees while the gate works.

On a terminal: one live line, rewritten in place (`\\r`), that names each running check with
what it is doing and how long it has been at it (`suite: run 2 of 3, 41 s`), refreshed every
second; when a check ends, its line (`     ok  suite: ...`) replaces the live line. Elsewhere
(a pipe, a CI log) or with NO_COLOR or CI set: plain lines, a line per step of a long check
and each check's line once, at its end. Either way each check's line is printed once, and
`shown` keeps them, so that the report printed after them to the same place leaves them out.
"""
from __future__ import annotations

import os
import shutil
import stat
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from gate.engine.progress import Progress
from gate.models import CheckResult
from gate.report import text
from gate.report.terminal import wants_colour

CLEAR_LINE = "\r\033[K"


def one_line(text: str) -> str:
    """A multi-line install command on one line: a live line that wraps cannot be rewritten."""
    return " ".join(text.split())


class PlainProgress(Progress):
    """A line per step of a long check, and each check's line once, at its end."""

    def __init__(self, stream: TextIO, colour: bool = False, owns_stream: bool = False) -> None:
        self.stream = stream
        self.colour = colour
        self.owns_stream = owns_stream  # closed with the progress (the hook's /dev/tty)
        self.shown: set[str] = set()

    def step(self, check_id: str, what: str) -> None:
        print(f"   ....  {check_id}: {one_line(what)}", file=self.stream, flush=True)

    def finished(self, result: CheckResult) -> None:
        self.shown.add(text.check_line(result))
        print(text.check_line(result, self.colour), file=self.stream, flush=True)

    def close(self) -> None:
        if self.owns_stream:
            self.stream.close()


class Quiet(PlainProgress):
    """Nothing shown while the gate works."""

    def step(self, check_id: str, what: str) -> None:
        pass

    def finished(self, result: CheckResult) -> None:
        pass


class LiveProgress(PlainProgress):
    """One line, rewritten in place, for the checks that are running."""

    def __init__(self, stream: TextIO, colour: bool = True, interval: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, owns_stream: bool = False) -> None:
        super().__init__(stream, colour, owns_stream)
        self._clock = clock
        self._running: dict[str, tuple[float, str]] = {}  # id: (start, what it does)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, args=(interval,),
                                        name="gate-progress", daemon=True)
        self._ticker.start()

    def _tick(self, interval: float) -> None:
        while not self._stop.wait(interval):
            with self._lock:
                if self._running:
                    self._draw()

    def _draw(self) -> None:
        now = self._clock()
        line = " | ".join(f"{check_id}: {what}, {now - start:.0f} s"
                          for check_id, (start, what) in self._running.items())
        width = _width(self.stream)
        if len(line) >= width:
            line = line[: width - 2] + "…"
        self.stream.write(CLEAR_LINE + line)
        self.stream.flush()

    def started(self, check_id: str, title: str) -> None:
        with self._lock:
            self._running[check_id] = (self._clock(), title)
            self._draw()

    def step(self, check_id: str, what: str) -> None:
        with self._lock:
            start = self._running.get(check_id, (self._clock(), ""))[0]
            self._running[check_id] = (start, one_line(what))
            self._draw()

    def finished(self, result: CheckResult) -> None:
        with self._lock:
            self._running.pop(result.id, None)
            self.shown.add(text.check_line(result))
            self.stream.write(CLEAR_LINE + text.check_line(result, self.colour) + "\n")
            if self._running:
                self._draw()
            self.stream.flush()

    def close(self) -> None:
        """Stop the ticker and leave the cursor at the start of an empty line."""
        self._stop.set()
        self._ticker.join()
        with self._lock:
            if self._running:
                self.stream.write(CLEAR_LINE)
                self.stream.flush()
        super().close()


def _width(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size().columns


def is_live(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """A live line on a terminal, but not with NO_COLOR or in CI (whose logs keep every
    `\\r`-rewritten line)."""
    return stream.isatty() and not environ.get("NO_COLOR") and not environ.get("CI")


def for_stream(stream: TextIO | None = None, environ: Mapping[str, str] | None = None,
               owns_stream: bool = False) -> PlainProgress:
    stream = stream or sys.stderr
    environ = os.environ if environ is None else environ
    colour = wants_colour(stream, environ)
    if is_live(stream, environ):
        return LiveProgress(stream, colour, owns_stream=owns_stream)
    return PlainProgress(stream, colour, owns_stream)


def same_place(a: TextIO, b: TextIO) -> bool:
    """Whether `a` and `b` are read as one (the report after the progress then leaves out the
    lines the progress showed): the same file or terminal, or two pipes, which is how a CI
    runner (GitHub Actions, a `subprocess` with both captured) reads a command's stdout and
    stderr into one log."""
    try:
        sa, sb = os.fstat(a.fileno()), os.fstat(b.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return os.path.samestat(sa, sb) or (stat.S_ISFIFO(sa.st_mode) and stat.S_ISFIFO(sb.st_mode))
