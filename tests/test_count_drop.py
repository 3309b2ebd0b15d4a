"""The test-count comparison: when the suite's first run stands for the head's collection,
and what is collected instead when it cannot."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from gate.outcomes import count_drop


@pytest.mark.parametrize("command", [
    "pytest", "python -m pytest", "python3 -m pytest -q", ".venv/bin/python3.11 -m pytest",
    "/usr/bin/pytest -v -rA --tb=short", "py.test -qq --color=no --durations=10",
    "python -m pytest -n auto", "python -m pytest -n 4 --strict-markers",
])
def test_a_whole_suite_command_is_its_own_collection(command: str) -> None:
    assert count_drop.whole_suite(command)


@pytest.mark.parametrize("command", [
    "python -m pytest tests/unit", "pytest -k 'not slow'", "pytest -m fast", "pytest -x",
    "pytest --lf", "pytest -p no:randomly", "pytest --deselect tests/a.py::t",
    "pytest --ignore tests/b", "pytest && echo done", "make test", "tox -e py",
    "python -m unittest", "pytest 'unterminated", "pytest -n", "pytest --junitxml=r.xml",
])
def test_a_command_that_may_select_tests_is_not(command: str) -> None:
    assert not count_drop.whole_suite(command)


def junit_report(path: Path, *cases: tuple[str, str, str]) -> str:
    rows = "".join(f'<testcase classname="{c}" name="{n}" file="{f}" line="3" time="0"/>'
                   for c, n, f in cases)
    path.write_text(f'<?xml version="1.0"?><testsuites><testsuite name="pytest">{rows}'
                    "</testsuite></testsuites>")
    return str(path)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A directory with one test file, collected by this interpreter's pytest."""
    root = tmp_path / "checkout"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_b.py").write_text("def test_b():\n    pass\n")
    return root


def python_env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}


def test_the_first_runs_report_is_the_heads_collection(tmp_path: Path, checkout: Path) -> None:
    report = junit_report(tmp_path / "r.xml", ("tests.test_b", "test_b", "tests/test_b.py"),
                          ("tests.test_b.TestK", "test_k[1]", "tests/test_b.py"))
    sets = count_drop.Collections({"tests/test_b.py::test_b"}, None)
    assert count_drop.head_collection(sets, report, str(checkout), python_env(), 60) == {
        "tests/test_b.py::test_b", "tests/test_b.py::TestK::test_k[1]"}


@pytest.mark.parametrize("report", ["missing.xml", "unrelated.xml"])
def test_a_report_that_cannot_stand_for_the_collection_is_replaced_by_one(
    tmp_path: Path, checkout: Path, report: str
) -> None:
    """No report (the run was cut short), or one that shares no test with the base (its
    names are not node ids): the head's checkout is collected instead."""
    junit_report(tmp_path / "unrelated.xml", ("x.y", "test_z", "x/y.txt"))
    sets = count_drop.Collections({"tests/test_b.py::test_gone"}, None)
    head = count_drop.head_collection(sets, str(tmp_path / report), str(checkout),
                                      python_env(), 60)
    assert head == {"tests/test_b.py::test_b"}


def test_a_collection_already_made_is_kept(tmp_path: Path, checkout: Path) -> None:
    sets = count_drop.Collections({"a.py::t"}, {"a.py::t", "b.py::u"})
    assert count_drop.head_collection(sets, str(tmp_path / "none.xml"), str(checkout),
                                      python_env(), 60) == {"a.py::t", "b.py::u"}
