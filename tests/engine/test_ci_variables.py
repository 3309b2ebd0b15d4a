"""The judged commands see what the base's own CI sets for its test job (issue 41): its
workflow's `env:`, on both sides, in the boundary; a head's workflow sets nothing for the
run that judges it; the project's PYTEST_ADDOPTS is kept beside the gate's own."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import project

from gate import cli

pytestmark = pytest.mark.slow  # whole gate runs

WORKFLOW = """\
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      CALC_MODE: {mode}
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e .[test]
      - run: python -m pytest -q
        env:
          PYTEST_ADDOPTS: -r a
"""
# right only in the mode the project's CI sets
MODE_TEST = """\
import os
import shlex


def test_the_ci_mode():
    assert os.environ.get("CALC_MODE") == "strict"


def test_the_projects_pytest_options_come_first():
    assert shlex.split(os.environ["PYTEST_ADDOPTS"])[:2] == ["-r", "a"]
"""


def _judge(capsys: pytest.CaptureFixture[str], tmp_path: Path, base_mode: str,
           head: dict[str, str | None]) -> dict[str, Any]:
    base = project(**{".github/workflows/ci.yml": WORKFLOW.format(mode=base_mode),
                      "tests/test_mode.py": MODE_TEST})
    repo, _, _ = make_change(tmp_path / "r", base, head)
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--runs", "1", "--pinned", "off"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def _suite(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "suite")


def test_the_tests_see_what_the_projects_ci_sets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """And not the caller's PYTEST_ADDOPTS: a runner starts without one (this one would
    deselect every test)."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "-k no_such_test")
    report = _judge(capsys, tmp_path, "strict", {"README.md": "a change\n"})
    assert _suite(report)["status"] == "passed", _suite(report)["summary"]
    assert _suite(report)["summary"].startswith("1 of 1 runs passed, 4/4 tests")


def test_a_heads_workflow_does_not_set_what_judges_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The base's CI sets another mode: the head's workflow, which sets the one its test
    wants, is not read for the run (check-config names the workflow's change)."""
    report = _judge(capsys, tmp_path, "lenient",
                    {".github/workflows/ci.yml": WORKFLOW.format(mode="strict")})
    suite = _suite(report)
    assert suite["status"] == "failed"
    # the base's value, not the head's, nor none
    assert [f["message"].split(" [")[0] for f in suite["findings"]] == [
        "tests/test_mode.py::test_the_ci_mode failed in 1 of 1 runs: AssertionError: assert "
        "'lenient' == 'strict'"]
