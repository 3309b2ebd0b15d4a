"""The options of its own that the project's CI gives pytest (`gate/outcomes/ci_paths.py`,
`options`) join the detected test command: pytoolz/toolz's CI runs `pytest
--doctest-modules`, and its doctests are part of the suite the gate judges."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import project

from gate.outcomes import ci_paths, detect

DOCTESTS = """\
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e .[test]
      - run: pytest --doctest-modules -v --cov=calc -n 2 -x -k add -p no:randomly calc tests
"""
CALC = '''\
def add(a, b):
    """
    >>> add(2, 3)
    5
    """
    return a + b


def sub(a, b):
    return a - b
'''


def _written(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return str(root)


def test_the_workflows_own_pytest_options_are_kept(tmp_path: Path) -> None:
    root = _written(tmp_path, {".github/workflows/ci.yml": DOCTESTS, "setup.py": "",
                               "calc/__init__.py": "", "tests/test_x.py": ""})
    assert ci_paths.options(root) == ("--doctest-modules", "-p", "no:randomly")
    assert detect.test_command(root) == (
        "python -m pytest --doctest-modules -p no:randomly -o 'testpaths=calc tests'")


def test_no_workflow_no_options(tmp_path: Path) -> None:
    assert ci_paths.options(_written(tmp_path, {"setup.py": ""})) == ()


@pytest.fixture(scope="module")
def broken_doctest(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """`add` broken where only its doctest catches it."""
    base = project(**{".github/workflows/ci.yml": DOCTESTS, "calc/__init__.py": CALC,
                      "tests/test_calc.py": "from calc import sub\n\n\n"
                                            "def test_sub():\n    assert sub(5, 3) == 2\n"})
    head: dict[str, str | None] = {"calc/__init__.py": CALC.replace("a + b", "a * b")}
    return gate_report(tmp_path_factory.mktemp("doctest"), wheelhouse, base, head)


@pytest.mark.slow
def test_a_broken_doctest_fails(broken_doctest: dict[str, Any]) -> None:
    """Before: the detected command was `python -m pytest`, no doctest ran, and the change
    passed."""
    ran = check(broken_doctest, "suite")
    assert ran["status"] == "failed"
    assert "calc.add" in ran["detail"], ran["detail"]
    assert broken_doctest["verdict"] == "fail"
