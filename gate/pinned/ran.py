"""Which tests ran a mutant's line: asked of the gate's line recorder
(`gate/pytest_plugins/gate_lines.py`) in the mutant's own pytest run, and read back here.

The record is written inside the judged process, so it only ever takes a kill away: a mutant
counts as killed by a failed test only if the record says that test ran its statement (or
the statement ran outside every test, at import). A test that fails without running it (one
that hashes the file, reads its source or bytecode) kills nothing. A record that is missing
from a pytest run that wrote its report, or that another tracer cut short, shows no test
running the line: the mutant is not counted killed on the judged process's word."""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from gate.outcomes.runners import pytest as pytest_runner
from gate.pinned.guards import Place

PLUGIN = "gate_lines"  # in gate/pytest_plugins


@dataclasses.dataclass(frozen=True)
class Record:
    tests: Mapping[str, frozenset[int]]  # test id ("": outside every test) -> lines it ran
    lost: bool  # another tracer replaced the recorder's: silence says nothing

    def ran(self, lines: frozenset[int]) -> set[str]:
        """The tests that ran any of `lines` ("" among them: at import or collection)."""
        return {t for t, hit in self.tests.items() if hit & lines}


def env(path: str, place: Place, report: str) -> dict[str, str]:
    """The variables that ask the recorder to watch `place` in `path`, writing to `report`."""
    lines = sorted(place.statement | place.handlers)
    return {"GATE_LINES": json.dumps({"path": path, "lines": lines}),
            "GATE_LINES_REPORT": report, "PYTHONPATH": pytest_runner.PLUGIN_DIR,
            "PYTEST_PLUGINS": PLUGIN}


def read(sent: Sequence[Mapping[str, Any]]) -> Record | None:
    """The record, from what the recorder sent on the evidence channel as the tests ran
    (None: the recorder never started: not pytest, or its plugin was not loaded). Items
    that do not read are dropped."""
    tests: dict[str, set[int]] = {}
    started = lost = False
    for item in sent:
        try:
            if "watching" in item:
                started = True
            elif item.get("lost"):
                lost = True
            elif "test" in item:
                tests.setdefault(str(item["test"]), set()).update(int(n) for n in item["lines"])
        except (ValueError, TypeError, AttributeError, KeyError):
            continue
    if not started:
        return None
    return Record({t: frozenset(lines) for t, lines in tests.items()}, lost)
