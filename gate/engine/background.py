"""Work done on a thread while the caller goes on, its result or its exception taken later.

A daemon thread, not an executor: when the run is interrupted, Python's exit does not wait
for work whose result nobody will read (an executor's threads are joined at exit)."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from gate.execution import waiting

T = TypeVar("T")


class Background(Generic[T]):
    def __init__(self, fn: Callable[[], T], name: str) -> None:
        self._fn = fn
        self._value: list[T] = []  # one item once the work is done
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value.append(self._fn())
        except BaseException as e:  # handed to the caller by result()
            self._error = e

    def wait(self) -> None:
        """Wait for the work, whatever its outcome (which is not looked at)."""
        waiting.join(self._thread)

    def result(self) -> T:
        """Wait for the work; raise what it raised."""
        waiting.join(self._thread)
        if self._error is not None:
            raise self._error
        return self._value[0]
