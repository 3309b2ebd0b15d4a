"""Every test by name for the runners whose printed output names only failures (Jest, Vitest,
Mocha, unittest): the gate's preloads, put in through the environment, append each test's
outcome to a file of the run's as a JSON line {runner, file, name, outcome, seconds, message}
(unittest's with the test's definition line).

- Node: `gate/preload/node/gate-report.cjs` through NODE_OPTIONS=--require=<path> (added to
  what is there), told where to write by GATE_JS_REPORT: Jest's summary reporter, Mocha's
  Runner events, Vitest's worker results.
- Python: `gate/preload/python/sitecustomize.py`, its directory put first on PYTHONPATH for the
  test runs only, told where to write by GATE_UNITTEST_REPORT: unittest's TestResult.

The report is written by the judged code, so it is not trusted: its counts must equal the
counts of the runner's own printed summary, every line must read, or the summary alone is kept
(its counts, only its failures named). The test command is never edited.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from gate.execution import judged_files
from gate.outcomes.record import CaseResult, Counts, Outcome

PRELOAD_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "preload")  # gate/preload
NODE_PRELOAD = os.path.join(PRELOAD_DIR, "node", "gate-report.cjs")
PYTHON_PRELOAD_DIR = os.path.join(PRELOAD_DIR, "python")  # holds sitecustomize.py
JS_RUNNERS = frozenset({"jest", "vitest", "mocha"})
RUNNERS = JS_RUNNERS | {"unittest"}
# Runners whose test names do not say the file: a test is known by its file and name.
BY_FILE = JS_RUNNERS
_OUTCOMES: frozenset[str] = frozenset({"passed", "failed", "skipped"})
_LIMIT = 64 * 1024 * 1024  # a report larger than this is not read


def js_report(report: str) -> str:
    return report + ".js.jsonl"


def unittest_report(report: str) -> str:
    return report + ".unittest.jsonl"


def clear(report: str) -> None:
    """Remove the preloads' report files before a run, whatever the last run left there (a
    directory, a FIFO)."""
    for path in (js_report(report), unittest_report(report)):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.lexists(path):
            os.unlink(path)


def env(report: str) -> dict[str, str]:
    """The variables that put the preloads in (the caller adds to NODE_OPTIONS and PYTHONPATH:
    `environment.extended`). NODE_OPTIONS is split on spaces: a path with one is left out."""
    out = {"GATE_JS_REPORT": js_report(report), "GATE_UNITTEST_REPORT": unittest_report(report),
           "PYTHONPATH": PYTHON_PRELOAD_DIR}
    if " " not in NODE_PRELOAD:
        out["NODE_OPTIONS"] = f"--require={NODE_PRELOAD}"
    return out


def _case(data: Any) -> tuple[str, CaseResult, str | None]:
    """(runner, case, vitest task id) of one line; ValueError when it is not one."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    runner, name, outcome = data.get("runner"), data.get("name"), data.get("outcome")
    file, message, seconds = data.get("file"), data.get("message", ""), data.get("seconds")
    task, line = data.get("id"), data.get("line")
    if not (isinstance(runner, str) and isinstance(name, str) and name
            and outcome in _OUTCOMES and (file is None or isinstance(file, str))
            and isinstance(message, str) and (task is None or isinstance(task, str))
            and (line is None or (type(line) is int and line > 0))):
        raise ValueError("a field is missing or of the wrong type")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or seconds < 0):
        raise ValueError("seconds")
    result: Outcome = outcome
    return runner, CaseResult(name, file or None, line, result, message,
                              None if seconds is None else float(seconds)), task


def cases(path: str, runner: str) -> list[CaseResult] | None:
    """The cases `runner` has in the report at `path`, in order; None when the file is
    missing, not a regular file, too large or has a line that does not read (a garbled
    report is not half-read)."""
    # not through a link, nor from a FIFO left to hang the gate: a file, or nothing
    data = judged_files.read(path, _LIMIT)
    if data is None:
        return None
    try:
        lines = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
    except ValueError:  # also JSON and UTF-8 errors
        return None
    return sent(lines, runner)


def sent(lines: Sequence[Any], runner: str) -> list[CaseResult] | None:
    """The cases `runner` has among the records, in order; None when one does not read.
    Vitest reports a test once per update: its last record counts."""
    found: dict[object, CaseResult] = {}
    try:
        for number, data in enumerate(lines):
            who, case, task = _case(data)
            if who == runner:
                found[task if task is not None else number] = case
    except ValueError:
        return None
    return list(found.values())


def _tally(found: list[CaseResult]) -> tuple[int, int, int]:
    return (sum(c.outcome == "passed" for c in found), sum(c.outcome == "failed" for c in found),
            sum(c.outcome == "skipped" for c in found))


def named(counts: Counts, report: str, records: Sequence[Any] | None = None) -> Counts:
    """`counts` (read from the runner's summary) with every test named from the preload's
    records, sent on the evidence channel as they happened (`records`; None: read from the
    preload's report file, where no channel was open), when they have exactly the summary's
    passes, failures and skips; otherwise `counts` as it is. A failing test keeps the
    summary's message where the summary names it."""
    if counts.complete or counts.runner not in RUNNERS:
        return counts
    path = js_report(report) if counts.runner in JS_RUNNERS else unittest_report(report)
    found = cases(path, counts.runner) if records is None else sent(records, counts.runner)
    if found is None or _tally(found) != (counts.passed, counts.failed, counts.skipped):
        return counts
    printed: Mapping[str, CaseResult] = {c.name: c for c in counts.failures()}
    merged = []
    for case in found:
        seen = printed.get(case.name) if case.outcome == "failed" else None
        if seen is not None and seen.message:
            case = dataclasses.replace(case, message=seen.message)
        merged.append(case)
    return dataclasses.replace(counts, cases=tuple(merged), complete=True)
