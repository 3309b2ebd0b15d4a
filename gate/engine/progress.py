"""What a caller hears while the gate works: each check's start, its steps ("run 2 of 3"),
and its end."""
from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

from gate.checks import registry
from gate.engine import redact
from gate.models import CheckResult


class Progress:
    """Told when each check starts and ends; the default says nothing."""

    def started(self, check_id: str, title: str) -> None:
        pass

    def step(self, check_id: str, text: str) -> None:
        """What the running check `check_id` is doing now: `run 2 of 3`, `installing`."""

    def finished(self, result: CheckResult) -> None:
        pass


class OneAtATime(Progress):
    """`gate run` tells its progress from two threads (the diff checks run beside the
    install); the caller's Progress hears one call at a time."""

    def __init__(self, inner: Progress) -> None:
        self._inner = inner
        self._lock = threading.Lock()

    def started(self, check_id: str, title: str) -> None:
        with self._lock:
            self._inner.started(check_id, title)

    def step(self, check_id: str, text: str) -> None:
        with self._lock:
            self._inner.step(check_id, text)

    def finished(self, result: CheckResult) -> None:
        with self._lock:
            self._inner.finished(result)


def timed(check_id: str, progress: Progress, fn: Callable[[], CheckResult],
          title: str | None = None) -> CheckResult:
    """Run one check, telling `progress` of its start and end; its result is redacted."""
    progress.started(check_id, title or registry.title(check_id))
    start = time.monotonic()
    result = redact.check(fn())  # nothing a command printed is shown before this
    if not result.duration_s:
        result = dataclasses.replace(result, duration_s=time.monotonic() - start)
    progress.finished(result)
    return result
