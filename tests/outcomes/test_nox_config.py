"""The nox session that runs a project's tests (`gate/outcomes/nox_config.py`), read as a
parser sees noxfile.py, and what the judged commands get from it: the session's `env`, its
installs, its pytest's arguments. nox passes the caller's whole environment (`CI` too).
The end-to-end runs are below the fast tests."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import project

from gate.outcomes import ci_env, detect, nox_config

NOXFILE = """\
import nox

TEST_DEPS = ["-r", "requirements/tests.txt"]


@nox.session(python=["3.11", "3.12"])
def lint(session):
    session.install("ruff")
    session.run("ruff", "check")


@nox.session(python=["3.11", "3.12"])
def tests(session):
    session.install("-e", ".", *TEST_DEPS)
    session.env["CALC_MODE"] = "strict"
    session.run("pytest", "--doctest-modules", "-q", "calc", "tests", env={"MORE": "1"})
"""
WORKFLOW = """\
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: pip install nox
      - run: nox -s tests-3.12
"""
NEEDS_NOX = """\
import os

from calc import add


def test_add_as_nox_runs_it():
    assert os.environ.get("CALC_MODE") == "strict"  # the session's env
    assert os.environ.get("MORE") == "1"  # the run's env
    assert add(2, 3) == 5
"""


def _written(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return str(root)


def test_the_session_the_workflow_names(tmp_path: Path) -> None:
    root = _written(tmp_path, {"noxfile.py": NOXFILE, ".github/workflows/ci.yml": WORKFLOW,
                               "setup.py": ""})
    session = nox_config.read(root, ("tests-3.12",))
    assert session is not None
    assert (session.name, session.python, session.passes) == ("tests", "3.12", None)
    assert session.deps == ("-e", ".", "-r", "requirements/tests.txt")
    assert session.set_env == {"CALC_MODE": "strict", "MORE": "1"}
    assert ci_env.for_tests(root).applied({"CI": "true"}) == {
        "CI": "true", "CALC_MODE": "strict", "MORE": "1"}
    assert detect.test_command(root) == "python -m pytest --doctest-modules"
    assert (detect.install_command(root) or "").endswith(" -e . -r requirements/tests.txt pytest")


def test_no_session_runs_pytest(tmp_path: Path) -> None:
    root = _written(tmp_path, {"noxfile.py": NOXFILE.replace('"pytest"', '"behave"')})
    assert nox_config.read(root) is None


def _nox_project() -> dict[str, str | None]:
    return project(**{"noxfile.py": NOXFILE, "requirements/tests.txt": "pytest\n",
                      ".github/workflows/ci.yml": WORKFLOW, "tests/test_calc.py": NEEDS_NOX})


HONEST = {"calc/more.py": "def double(x):\n    return 2 * x\n",
          "tests/test_more.py": "from calc.more import double\n\n\n"
                                "def test_double():\n    assert double(4) == 8\n"}
BROKEN = {"calc/__init__.py": "def add(a, b):\n    return a - b\n\n\n"
                              "def sub(a, b):\n    return a - b\n"}


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    return gate_report(tmp_path_factory.mktemp("nox-honest"), wheelhouse, _nox_project(),
                       dict(HONEST))


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    return gate_report(tmp_path_factory.mktemp("nox-broken"), wheelhouse, _nox_project(),
                       dict(BROKEN))


@pytest.mark.slow
def test_an_honest_change_to_a_nox_project_passes(honest: dict[str, Any]) -> None:
    """Before: the session's variables were never set, the test failed at base and head
    alike, and the run could not judge (exit 2)."""
    assert check(honest, "suite")["status"] == "passed", check(honest, "suite")
    assert honest["verdict"] == "pass"


@pytest.mark.slow
def test_a_broken_change_to_a_nox_project_fails(broken: dict[str, Any]) -> None:
    ran = check(broken, "suite")
    assert ran["status"] == "failed"
    assert "tests/test_calc.py::test_add_as_nox_runs_it" in ran["detail"]
    assert broken["verdict"] == "fail"
