"""The gate's pytest plugin for every pytest run it makes: each pytest session writes its
JUnit report to a file of its own (`<report>.<n>`), so that a command running pytest more than
once (`pytest unit && pytest integration`) keeps every session's outcomes, not the last one's.

Loaded through PYTEST_PLUGINS=gate_sessions with this directory on PYTHONPATH; inert unless
GATE_JUNIT names the report the gate asked for with --junitxml. Standard library only: the gate
is not installed where pytest runs."""
from __future__ import annotations

import os
from typing import Any

import pytest


@pytest.hookimpl(tryfirst=True)  # before pytest's junitxml plugin opens the report
def pytest_configure(config: Any) -> None:
    report = os.environ.get("GATE_JUNIT")
    if not report or hasattr(config, "workerinput"):  # xdist workers write no report
        return
    if getattr(config.option, "xmlpath", None) != report:
        return
    n = 0
    while True:
        path = f"{report}.{n}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            n += 1
            continue
        config.option.xmlpath = path
        return
