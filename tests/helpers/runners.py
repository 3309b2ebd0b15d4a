"""Run a test command the way the suite does, in a directory of a test's making."""
from __future__ import annotations

from pathlib import Path

from gate.execution.environment import clean_env
from gate.execution.run_workspace import Workspace
from gate.outcomes.testrun import TestRun, run_tests


def run_in(root: Path, command: str, timeout: float = 120) -> TestRun:
    scratch = root.parent / f"{root.name}-scratch"
    scratch.mkdir(exist_ok=True)
    ws = Workspace(str(root), str(scratch), clean_env(), timeout)
    return run_tests(ws, command, str(scratch / "report.xml"))
