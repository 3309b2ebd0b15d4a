"""The one subprocess wrapper for commands from the head.

Each command runs in its own session (so its process group can be killed whole, and it
cannot kill the gate), with a time limit, and its combined output is read as a stream of
which only the first and last `limit` bytes are kept. When it ends, every process it started
is killed: its group, and (through a marker in their environment) those that left the group.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from gate.execution import conditions, logs, memory, reaper, waiting

OUTPUT_LIMIT = 1024 * 1024
WRAPPER = '/bin/sh -c "$1"; exit $?'
# `python -m mypy` where mypy is not installed: all Python prints, with exit 1 (the command
# could not run, as a command not found; an import error inside a tool prints a traceback)
NO_MODULE = re.compile(r"\S*python[\d.]*: No module named [\w.]+")
# Each judged process may hold at most half the machine's memory: `memory.watch` kills the
# command when one holds more (mahmoud/boltons 3e9983d: the head's new test loops forever on
# the base's code, and filled 24 GB for two minutes). From outside: no resource limit the CI
# runner lacks is visible to the judged code.
MEMORY_LIMIT_KB = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2048
# (argv, cwd) -> the argv that is started: the isolation boundary around a command.
Wrap = Callable[[Sequence[str], str], list[str]]


@dataclasses.dataclass(frozen=True)
class Completed:
    command: str
    returncode: int | None  # None: killed on timeout
    output: str
    timed_out: bool
    not_found: bool
    duration_s: float
    dropped_bytes: int = 0

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.output.rstrip("\n").splitlines()[-lines:])


class BoundedBuffer:
    """Keeps the first and the last `limit` bytes of a stream."""

    def __init__(self, limit: int = OUTPUT_LIMIT) -> None:
        self.limit = limit
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def write(self, chunk: bytes) -> None:
        room = self.limit - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            excess = len(self.tail) - self.limit
            if excess > 0:
                del self.tail[:excess]
                self.dropped += excess

    def text(self) -> str:
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if self.dropped:
            return f"{head}\n[... {self.dropped} bytes of output not kept ...]\n{tail}"
        return head + tail


def _pump(stream: IO[bytes], buffer: BoundedBuffer, sink: IO[bytes] | None = None) -> None:
    while True:
        chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
        if not chunk:
            return
        buffer.write(chunk)
        if sink is not None:
            sink.write(chunk)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def run_shell(
    command: str,
    *,
    cwd: str,
    env: Mapping[str, str],
    timeout: float,
    limit: int = OUTPUT_LIMIT,
    log: str | None = None,
    wrap: Wrap | None = None,
) -> Completed:
    """Run `command` through the shell; never raises for the command's own failures.

    The outer shell stays as the command's parent (`exit $?` comes after it, so the shell
    cannot `exec` it away): a test that kills its parent kills that shell, not the gate."""
    return run_argv(["/bin/sh", "-c", WRAPPER, "gate", command], cwd=cwd, env=env,
                    timeout=timeout, limit=limit, display=command, log=log, wrap=wrap)


def run_argv(
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    timeout: float,
    limit: int = OUTPUT_LIMIT,
    display: str | None = None,
    log: str | None = None,
    wrap: Wrap | None = None,
    memory_kb: int | None = MEMORY_LIMIT_KB,
) -> Completed:
    """Run `argv` (started as `wrap(argv, cwd)` when given: in the isolation boundary), each
    of its processes watched to hold at most `memory_kb` (`memory`); `log`: a file that gets
    the whole output (not only the kept `limit` bytes)."""
    shown = display if display is not None else " ".join(argv)
    marker = reaper.new_marker("CMD")
    if wrap is not None:
        argv = wrap(argv, cwd)
        at = next((i for i, a in enumerate(argv) if os.path.basename(a) == "bwrap"), -1)
        if at >= 0:  # inside, its PID namespace ends them all: the marker is not shown
            argv = [*argv[:at + 1], "--unsetenv", marker, *argv[at + 1:]]
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(logs.open_new(log)) if log else None
        if sink is not None:
            logs.header(sink, shown, cwd)
        done = _run(argv, shown, cwd, env, timeout, limit, sink, marker, memory_kb)
        if sink is not None:
            logs.footer(sink, done.returncode, done.timed_out, done.duration_s)
        return done


def _run(argv: Sequence[str], shown: str, cwd: str, env: Mapping[str, str], timeout: float,
         limit: int, sink: IO[bytes] | None, marker: str, memory_kb: int | None) -> Completed:
    start = time.monotonic()
    with reaper.starting(env) as may:
        if not may:  # its run was ended (interrupted): as if killed at once
            return Completed(shown, -signal.SIGKILL, "not started: the run was ended", False,
                             False, 0.0)
        try:
            proc = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env={**env, marker: "1"},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except FileNotFoundError:
            if sink is not None:
                sink.write(f"command not found: {argv[0]}\n".encode())
            return Completed(shown, 127, f"command not found: {argv[0]}", False, True, 0.0)
    buffer = BoundedBuffer(limit)
    reader = threading.Thread(target=_pump, args=(proc.stdout, buffer, sink), daemon=True)
    reader.start()
    # A blocking wait on a thread returns the moment the command ends; `wait(timeout=...)`
    # polls, and would add up to 50 ms to every command.
    waiter = threading.Thread(target=proc.wait, daemon=True)
    waiter.start()
    said: list[str] = []
    watched = memory.watch(proc.pid, memory_kb, lambda: _kill_group(proc.pid), said) if (
        memory_kb) else None
    timed_out = False
    try:
        waiting.join(waiter, timeout)
        timed_out = waiter.is_alive()
    finally:
        if watched is not None:
            watched.set()
        # Whatever happened (timeout, Ctrl-C), nothing the command started outlives it.
        _kill_group(proc.pid)
        proc.wait()
        reaper.kill_marked(marker)
        conditions.remove_clock_leftovers(proc.pid)
    reader.join(timeout=5)
    if proc.stdout is not None:
        proc.stdout.close()
    returncode = None if timed_out else proc.returncode
    output = buffer.text() + "".join(f"\n{line}\n" for line in said)
    if sink is not None and said:
        sink.write("".join(f"{line}\n" for line in said).encode())
    not_found = (returncode == 127 and "not found" in output) or (
        returncode == 1 and NO_MODULE.fullmatch(output.strip()) is not None)
    return Completed(shown, returncode, output, timed_out, not_found,
                     time.monotonic() - start, buffer.dropped)
