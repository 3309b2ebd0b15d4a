"""The Python API: gate.run / gate.scan, and the `submit` tool of docs/api.md, run as written."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

import gate
from gate.errors import GateError

API_PAGE = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()


def test_import_gate_does_not_import_the_engine() -> None:
    code = ("import sys, gate; print(sorted(m for m in sys.modules if m.startswith('gate')));"
            "gate.run; print('gate.engine.runner' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["['gate']", "True"]


def test_scan_returns_the_report(tmp_path: Path) -> None:
    repo, base, head = make_change(tmp_path / "r", {"a.py": "x = 1\n"},
                                   {"a.py": "x = 1  # noqa\n"})
    report = gate.scan(str(repo.path), base="main", head="change")
    assert (report.base, report.head, report.verdict) == (base, head, "needs-review")
    assert [f.rule for c in report.checks for f in c.findings] == ["noqa"]


def test_errors_raise_gate_error(tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.py": "x = 1\n"}, {})
    with pytest.raises(GateError, match="no-such-ref"):
        gate.run(str(repo.path), base="no-such-ref")


def submit_tool() -> Any:
    [code] = re.findall(r"```python\n(.*?)```", API_PAGE, re.S)
    namespace: dict[str, Any] = {}
    exec(compile(code, "docs/api.md", "exec"), namespace)
    return namespace["submit"]


def test_the_documented_submit_tool_returns_the_failed_checks(tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": (
        'install = "true"\ntest = "grep -qx 2 answer.txt"\nruns = 1\n'),
        "answer.txt": "2\n"}, {})
    submit = submit_tool()
    (repo.path / "answer.txt").write_text("3\n")
    answer = json.loads(submit(str(repo.path), "wrong answer"))
    assert answer["verdict"] == "fail"
    [suite] = answer["failed"]
    assert (suite["check"], suite["status"]) == ("suite", "failed")
    assert suite["summary"] == ("0 of 1 runs passed (run 1: exit 1); "
                                "baseline: regression, passes at base")
    (repo.path / "answer.txt").write_text("2\n")
    assert submit(str(repo.path), "right answer") == "pass: the change is accepted"
