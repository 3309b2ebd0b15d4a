"""The baseline and the test-count drop, end to end with real pytest in fresh environments."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import project

from gate import cli

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("offline_pip")]

SUB_BROKEN_AT_BASE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n"
BOTH_BROKEN = "def add(a, b):\n    return a * b\n\n\ndef sub(a, b):\n    return a + b\n"


def run(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> dict[str, Any]:
    cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change", "--runs", "1",
              "--format", "json", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def test_each_failing_test_is_a_regression_or_pre_existing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(**{"calc/__init__.py": SUB_BROKEN_AT_BASE}),
                             {"calc/__init__.py": BOTH_BROKEN})
    report = run(capsys, repo.path)
    suite = check(report, "suite")
    assert suite["summary"] == (
        "0 of 1 runs passed, 0/2 tests (run 1: exit 1); baseline: 1 regression(s), "
        "1 pre-existing, failing at base too: not this change's doing")
    assert [(f["line"], f["message"]) for f in suite["findings"]] == [
        (4, "tests/test_calc.py::test_add failed in 1 of 1 runs: assert 6 == 5 "
            "[regression: passed at base]"),
        (8, "tests/test_calc.py::test_sub failed in 1 of 1 runs: assert 8 == 2 "
            "[pre-existing: fails at base too]"),
    ]
    assert suite["detail"].startswith("FAILED tests/test_calc.py::test_add (tests/test_calc.py:4)")
    assert report["verdict"] == "fail"


@pytest.mark.parametrize(("command", "collections"), [
    ("python -m pytest", 1),  # the suite's first run stands for the head's collection
    ("python -m pytest -q tests", 2),  # a path: the run may not be the whole collection
])
def test_a_deselecting_conftest_is_a_count_drop_and_no_baseline_runs_when_the_head_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, collections: int
) -> None:
    log = tmp_path / "collections.log"
    count = ("def pytest_sessionstart(session):\n"
             "    if session.config.option.collectonly:\n"
             f"        open({str(log)!r}, 'a').write('collection\\n')\n")
    conftest = count + (
        "\n\ndef pytest_collection_modifyitems(config, items):\n"
        "    items[:] = [i for i in items if i.name != 'test_sub']\n")
    repo, _, _ = make_change(tmp_path / "r", project(**{"conftest.py": count}),
                             {"conftest.py": conftest})
    report = run(capsys, repo.path, "--test", command)
    assert log.read_text() == "collection\n" * collections
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 1/1 tests"
    removed = check(report, "tests-removed")
    assert (removed["status"], removed["summary"]) == (
        "failed", "1 test(s) defined at head no longer run")
    assert [(f["path"], f["line"], f["rule"], f["message"]) for f in removed["findings"]] == [(
        "tests/test_calc.py", 8, "not-collected",
        "`tests/test_calc.py::test_sub` ran at base and does not run at head, though its "
        "definition is still there: deselected by a conftest, `-k`, `testpaths` or another "
        "collection setting")]
    assert report["verdict"] == "needs-review"
