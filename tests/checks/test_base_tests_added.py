"""base-tests when the head only adds test files (issue 25): the base's whole test tree runs
over the head code without the head's additions, so an added file whose module body patches
the code for every test no longer hides a broken change. Its honest twin, a new test of a
working change, passes."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate import cli

pytestmark = pytest.mark.slow  # whole gate runs

BASE = {
    ".gate.toml": f'install = "true"\ntest = "{sys.executable} -m pytest -q"\nruns = 1\n',
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_add.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"}


def _judge(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           head: dict[str, str | None]) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(tmp_path / "r", BASE, head)
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def test_an_added_test_file_that_patches_the_code_for_every_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    patch = ("import calc\n\ncalc.add = lambda a, b: a + b if (a, b) != (2, 3) else 5\n\n\n"
             "def test_sub():\n    assert calc.add(1, 1) == 2\n")
    code, report = _judge(tmp_path, capsys, {"calc.py": "def add(a, b):\n    return a - b\n",
                                            "tests/test_aa_setup.py": patch})
    assert _check(report, "suite")["status"] == "passed"  # fooled: the patch runs first
    base_tests = _check(report, "base-tests")
    assert base_tests["status"] == "failed"
    assert [(f["path"], f["line"], f["rule"]) for f in base_tests["findings"]] == [
        ("tests/test_add.py", 4, "base-test-failed")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_an_honest_added_test_passes(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    new = "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"
    code, report = _judge(tmp_path, capsys, {"tests/test_zero.py": new})
    assert _check(report, "base-tests")["status"] == "passed"
    assert "1 base test file(s)" in _check(report, "base-tests")["summary"]
    assert (report["verdict"], code) == ("pass", 0)


DOC_BASE = {
    ".gate.toml": BASE[".gate.toml"], "pytest.ini": "[pytest]\naddopts = --doctest-modules\n",
    "calc.py": 'def add(a, b):\n    """Add.\n\n    >>> add(2,3)\n    5\n    """\n'
               "    return a + b\n",
    "tests/test_add.py": "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"}


def _judge_doc(tmp_path: Path, capsys: pytest.CaptureFixture[str],
               head: dict[str, str | None]) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(tmp_path / "r", DOC_BASE, head)
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_doctest_edited_to_fit_broken_code_is_run_as_the_base_wrote_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calc = DOC_BASE["calc.py"].replace("5\n", "6\n").replace("a + b", "a * b or a + b")
    code, report = _judge_doc(tmp_path, capsys, {"calc.py": calc})
    assert _check(report, "suite")["status"] == "passed"  # the head's example fits its code
    base_tests = _check(report, "base-tests")
    assert base_tests["status"] == "failed"
    assert [(f["path"], f["rule"]) for f in base_tests["findings"]] == [
        ("calc.py", "base-test-failed")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_doctest_reworded_over_the_same_code_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calc = DOC_BASE["calc.py"].replace(">>> add(2,3)", ">>> add(2, 3)").replace(
        '    """\n', "    >>> add(1, 1)\n    2\n    \"\"\"\n", 1)
    code, report = _judge_doc(tmp_path, capsys, {"calc.py": calc})
    assert _check(report, "base-tests")["status"] == "passed"
    assert (report["verdict"], code) == ("pass", 0)
