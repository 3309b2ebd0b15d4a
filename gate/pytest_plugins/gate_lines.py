"""The gate's pytest plugin for a mutant's run: which tests ran which of a few lines of one
file (the mutated statement, and the lines that say whether an optional import failed here).

Loaded through PYTEST_PLUGINS=gate_lines with this directory on PYTHONPATH; inert unless
GATE_LINES is set: `{"path": "pkg/mod.py", "lines": [12, 13]}` (path relative to the
checkout). Each test's hits are sent as it ends on the gate's evidence channel
(`gate_evidence`, a `lines` message; without a channel, appended to the file named by
GATE_LINES_REPORT), `{"test": nodeid, "lines": [...]}`; lines run outside any test (at import,
during collection) under the test "". A first line `{"watching": path}` says the recorder
ran. Only the watched file's frames are traced: `sys.monitoring` (Python 3.12+) gets LINE
events of its code objects alone; below it, a `sys.settrace` whose global function returns
no local tracer for any other file.

This runs inside the judged process: what it writes is weaker evidence than the runner's
own outcomes, and the gate uses it only to take kills away (a test that failed without
running the mutated line kills nothing), never to add one. Standard library only."""
from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

import gate_evidence
import pytest

_TOOL = 4  # sys.monitoring's tool ids 0-5; 4 and 5 are free for any tool by convention


class _Recorder:
    def __init__(self, path: str, lines: set[int], out: str) -> None:
        self._suffix = os.sep + os.path.normpath(path)
        self._lines = lines
        self._out = out
        self._hits: set[int] = set()
        self._files: dict[str, bool] = {}
        self._test = ""
        self._write({"watching": path})

    def _ours(self, filename: str) -> bool:
        known = self._files.get(filename)
        if known is None:
            full = os.path.normpath(os.path.abspath(filename))
            known = self._files[filename] = full.endswith(self._suffix)
        return known

    def _write(self, record: dict[str, Any]) -> None:
        if gate_evidence.active():  # as it happens, to the gate: no file to rewrite later
            gate_evidence.send("lines", **record)
            return
        with open(self._out, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")

    def hit(self, line: int) -> None:
        if line in self._lines:
            self._hits.add(line)

    def start(self) -> None:
        if sys.version_info >= (3, 12):
            self._monitor()
        else:
            threading.settrace(self._global)
            sys.settrace(self._global)

    def _monitor(self) -> None:
        monitoring: Any = vars(sys)["monitoring"]
        events = monitoring.events
        if monitoring.get_tool(_TOOL) is None:
            monitoring.use_tool_id(_TOOL, "gate_lines")
        disable = monitoring.DISABLE

        def on_start(code: Any, offset: int) -> Any:
            if self._ours(code.co_filename):
                monitoring.set_local_events(_TOOL, code, events.LINE)
            return disable

        def on_line(code: Any, line: int) -> Any:
            self.hit(line)
            return disable  # again at the next test (`restart_events`)

        monitoring.register_callback(_TOOL, events.PY_START, on_start)
        monitoring.register_callback(_TOOL, events.LINE, on_line)
        monitoring.set_events(_TOOL, events.PY_START)

    def _global(self, frame: Any, event: str, arg: Any) -> Any:
        return self._local if self._ours(frame.f_code.co_filename) else None

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            self.hit(frame.f_lineno)
        return self._local

    def lost(self) -> bool:
        """Whether another tracer replaced ours (coverage's, below Python 3.12): from then on
        nothing is recorded, and the gate must not read the silence as "not run"."""
        return sys.version_info < (3, 12) and sys.gettrace() != self._global

    def switch(self, test: str) -> None:
        """The hits so far belong to the test that ran; the next ones to `test`."""
        if self.lost():
            self._write({"lost": True})
        if self._hits or self._test == "":
            self._write({"test": self._test, "lines": sorted(self._hits)})
        self._hits = set()
        self._test = test
        if sys.version_info >= (3, 12):
            vars(sys)["monitoring"].restart_events()


def _started() -> list[_Recorder]:
    """Started as pytest loads this plugin: before any conftest.py, so the code they import
    is traced too."""
    wanted, out = os.environ.get("GATE_LINES"), os.environ.get("GATE_LINES_REPORT")
    if not wanted or not out:
        return []
    spec = json.loads(wanted)
    recorder = _Recorder(str(spec["path"]), {int(n) for n in spec["lines"]}, out)
    recorder.start()
    return [recorder]


_RECORDER: list[_Recorder] = _started()


@pytest.hookimpl(hookwrapper=True)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    if _RECORDER:
        _RECORDER[0].switch(item.nodeid)
    yield
    if _RECORDER:
        _RECORDER[0].switch("")


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_unconfigure(config: Any) -> None:
    if _RECORDER:
        _RECORDER[0].switch("")
