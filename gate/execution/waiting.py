"""Waits that a signal can end. The kernel may deliver SIGINT or SIGTERM to any of the gate's
threads; CPython runs the handler in the main thread, but only once that thread runs Python
code again, and a main thread blocked on a lock (a thread's join, a future's result) stays
blocked: Ctrl-C or SIGTERM waited out a judged `sleep 600`
(tests/execution/test_interrupt.py, about 1 run in 12 under load). So the main thread waits
in short slices."""
from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import TypeVar

SLICE = 0.2  # seconds: how late a signal's handler may run
T = TypeVar("T")


def join(thread: threading.Thread, timeout: float | None = None) -> None:
    """`thread.join(timeout)`, in slices."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while thread.is_alive():
        left = SLICE if deadline is None else min(SLICE, deadline - time.monotonic())
        if left <= 0:
            return
        thread.join(left)


def result(future: concurrent.futures.Future[T]) -> T:
    """`future.result()`, in slices."""
    while True:
        try:
            return future.result(SLICE)
        except concurrent.futures.TimeoutError:
            if future.done():  # the work itself raised a TimeoutError
                return future.result()
