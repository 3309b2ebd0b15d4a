"""The baseline and the base outcomes, end to end with real pytest in fresh environments."""
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


@pytest.mark.parametrize("command", ["python -m pytest", "python -m pytest -q tests"])
def test_a_deselecting_conftest_is_named_by_the_base_outcomes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The base's run says test_sub passed; the head's conftest deselects it: with a plain
    command or with a path, the head's first run is compared with the base's outcomes (no
    collection of its own)."""
    conftest = (
        "def pytest_collection_modifyitems(config, items):\n"
        "    items[:] = [i for i in items if i.name != 'test_sub']\n")
    repo, _, _ = make_change(tmp_path / "r", project(), {"conftest.py": conftest})
    report = run(capsys, repo.path, "--test", command)
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests (base 2: 1 no longer run)")
    removed = check(report, "tests-removed")
    assert (removed["status"], removed["summary"]) == (
        "failed", "1 test(s) that passed at base no longer run")
    assert [(f["path"], f["line"], f["rule"], f["message"]) for f in removed["findings"]] == [(
        "tests/test_calc.py", 8, "not-run-at-head",
        "`tests/test_calc.py::test_sub` passed at base and does not run at head: its file is "
        "still there: deselected by config (a conftest, a cfg attribute, a filter), or its "
        "definition moved where the runner does not look")]
    assert report["verdict"] == "needs-review"


def test_a_check_whose_command_the_install_lacks_at_base_and_head_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen: gate init proposed a check nothing installed; the first honest change failed
    with "command not found", at base as at head: the install is the cause."""
    pyproject = project()["pyproject.toml"] or ""
    pyproject += '\n[[tool.gate.checks]]\nname = "lint"\nrun = "gate-no-such-linter ."\n'
    repo, _, _ = make_change(tmp_path / "r", project(**{"pyproject.toml": pyproject}),
                             {"README": "honest\n"})
    report = run(capsys, repo.path)
    lint = check(report, "lint")
    assert lint["status"] == "error"
    assert lint["summary"].endswith(
        "; baseline: pre-existing, fails at base too: not this change's doing: the install "
        "lacks gate-no-such-linter: set `install` in [tool.gate] on the base branch")
