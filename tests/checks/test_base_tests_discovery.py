"""base-tests runs the base's tests as the project's own pytest configuration would: a
shell-split option's list item keeps its spaces (packaging's `addopts = ["-m", "not
property"]`) and a directory pytest does not recurse into stays out of the run
(marshmallow's `norecursedirs = "tests/mypy_test_cases"`). An honest edit of a test passes."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate import cli

pytestmark = pytest.mark.slow  # a whole gate run

BASE = {
    ".gate.toml": f'install = "true"\ntest = "{sys.executable} -m pytest -q"\nruns = 1\n',
    "pyproject.toml": ('[tool.pytest.ini_options]\naddopts = ["-m", "not property"]\n'
                       'markers = ["property: property-based tests (opt-in)"]\n'
                       'norecursedirs = "tests/mypy_test_cases"\n'),
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_add.py": ("import pytest\n\nfrom calc import add\n\n\ndef test_add():\n"
                          "    assert add(2, 3) == 5\n\n\n@pytest.mark.property\n"
                          "def test_property():\n    assert False, 'opt-in only'\n"),
    "tests/mypy_test_cases/test_typing.py": "raise TypeError('for mypy, not to run')\n",
}


def test_an_honest_test_edit_passes_under_the_projects_own_discovery(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = BASE["tests/test_add.py"].replace("add(2, 3) == 5", "add(2, 3) == 5 == add(3, 2)")
    repo, _, _ = make_change(tmp_path / "r", BASE, {"tests/test_add.py": edited})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    base_tests = next(c for c in report["checks"] if c["id"] == "base-tests")
    assert (base_tests["status"], base_tests["summary"]) == (
        "passed", "1 base test file(s) (tests/test_add.py) pass on the head code")
    assert (report["verdict"], code) == ("pass", 0)
