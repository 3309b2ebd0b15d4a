"""The tox environment that runs a project's tests (`gate/outcomes/tox_config.py`) and what
the judged commands get from it (`ci_env`, `detect`): tox's environment, not the runner's
(no `CI`, `setenv`'s values), its requirements files in the install, its pytest's options.
The end-to-end runs are below the fast tests."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.gitrepo import Repo
from helpers.pyproject_fixture import project

from gate.execution import venv
from gate.outcomes import base_commands, ci_env, detect, tox_config

TOX = """\
[tox]
env_list = py3{11,12}, lint

[testenv]
deps =
    -r requirements/tests.txt
    py311: tomli
setenv =
    CALC_MODE = strict
    OUT = {envtmpdir}/x
passenv = FOO, BAR_*
commands = pytest --doctest-modules -p no:cacheprovider -m "not slow" -v --cov=calc {posargs:tests}

[testenv:lint]
commands = ruff check
"""
WORKFLOW = """\
on: push
env: {FOO: "1", OTHER: "2"}
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: pip install tox
      - run: tox -e py312
"""
NEEDS_TOX = """\
import os

from calc import add


def test_add_as_tox_runs_it():
    assert os.environ.get("CALC_MODE") == "strict"  # tox's setenv
    assert "CI" not in os.environ  # tox passes only its list and passenv
    assert add(2, 3) == 5
"""


def _written(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return str(root)


def test_the_environment_the_workflow_names(tmp_path: Path) -> None:
    root = _written(tmp_path, {"tox.ini": TOX, ".github/workflows/ci.yml": WORKFLOW,
                               "setup.py": "", "tests/test_x.py": ""})
    env = tox_config.read(root, ("py312",))
    assert env is not None
    assert (env.name, env.python, env.deps) == ("py312", "3.12", ("-r", "requirements/tests.txt"))
    assert env.set_env["CALC_MODE"] == "strict" and "OUT" not in env.set_env
    ci = ci_env.for_tests(root)
    seen = ci.applied({"CI": "true", "FOO": "0", "BAR_X": "y", "LANG": "C", "PATH": "/bin",
                       "PIP_FIND_LINKS": "/w", "EDITOR": "vi"})
    assert seen == {"FOO": "1", "BAR_X": "y", "LANG": "C", "PATH": "/bin",
                    "PIP_FIND_LINKS": "/w", **env.set_env}  # OTHER: the workflow's, not passed


def test_the_command_and_install_are_toxs(tmp_path: Path) -> None:
    root = _written(tmp_path, {"tox.ini": TOX, ".github/workflows/ci.yml": WORKFLOW,
                               "setup.py": "", "tests/test_x.py": ""})
    assert detect.test_command(root) == (
        "python -m pytest --doctest-modules -p no:cacheprovider -m 'not slow' "
        "-o testpaths=tests")
    assert (detect.install_command(root) or "").endswith(
        " -e . -r requirements/tests.txt pytest")


def test_generative_env_lists_keep_their_groups(tmp_path: Path) -> None:
    """pytest-dev/pytest-repeat: `py{310,311}-pytest8, py39-pytest{5,6}`; the factor
    chooses the deps."""
    root = _written(tmp_path, {"tox.ini": "[tox]\nenvlist =\n  py{310,311}-pytest8, "
                                          "py39-pytest{5,6}\n\n[testenv]\ncommands = pytest\n"
                                          "deps =\n    pytest5: pytest~=5.4\n"
                                          "    pytest8: pytest>=8\n"})
    env = tox_config.read(root)
    assert env is not None and (env.name, env.deps) == ("py310-pytest8", ("pytest>=8",))


def test_factors_choose_the_lines(tmp_path: Path) -> None:
    root = _written(tmp_path, {"tox.ini": TOX})
    env = tox_config.read(root, ("py311",))
    assert env is not None and env.deps == ("-r", "requirements/tests.txt", "tomli")


def test_the_environments_python_runs_pytest(tmp_path: Path) -> None:
    root = _written(tmp_path, {"tox.ini": "[testenv]\ncommands =\n    {envpython} -m pytest "
                                          "--doctest-modules {posargs}\n"})
    env = tox_config.read(root)
    assert env is not None and env.pytest_args == ("--doctest-modules",)


def test_the_python_tox_names_is_the_environments_where_this_machine_has_it(
        tmp_path: Path) -> None:
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"
    repo = Repo(tmp_path / "r")
    base = repo.commit({"tox.ini": f"[testenv]\nbasepython = python{here}\ncommands = pytest\n"})
    assert base_commands.python_version(str(repo.path), base) == here
    assert venv.interpreter(here) is not None
    assert venv.interpreter("3.999") is None  # named, absent here: the default serves
    shim = tmp_path / "bin" / "python3.998"  # a pyenv shim of a version not selected
    shim.parent.mkdir()
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.998: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
        assert venv.interpreter("3.998") is None


def test_without_tox_in_the_test_step_the_runners_environment_is_whole(tmp_path: Path) -> None:
    root = _written(tmp_path, {"tox.ini": TOX, ".github/workflows/ci.yml": WORKFLOW.replace(
        "tox -e py312", "pytest tests")})
    ci = ci_env.for_tests(root)
    assert ci.passes is None and ci.applied({"CI": "true"})["CI"] == "true"


def _tox_project(**more: str | None) -> dict[str, str | None]:
    return project(**{"tox.ini": "[testenv]\ndeps = -r requirements/tests.txt\n"
                                 "setenv =\n    CALC_MODE = strict\ncommands = pytest {posargs}\n",
                      "requirements/tests.txt": "pytest\n",
                      ".github/workflows/ci.yml": WORKFLOW.replace("py312", "py"),
                      "tests/test_calc.py": NEEDS_TOX, **more})


HONEST = {"calc/more.py": "def double(x):\n    return 2 * x\n",
          "tests/test_more.py": "from calc.more import double\n\n\n"
                                "def test_double():\n    assert double(4) == 8\n"}
BROKEN = {"calc/__init__.py": "def add(a, b):\n    return a - b\n\n\n"
                              "def sub(a, b):\n    return a - b\n"}


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    return gate_report(tmp_path_factory.mktemp("tox-honest"), wheelhouse, _tox_project(),
                       dict(HONEST))


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    return gate_report(tmp_path_factory.mktemp("tox-broken"), wheelhouse, _tox_project(),
                       dict(BROKEN))


@pytest.mark.slow
def test_an_honest_change_to_a_tox_project_passes(honest: dict[str, Any]) -> None:
    """Before: the gate set `CI=true` and no `CALC_MODE`, the test failed at base and head
    alike, and the run could not judge (exit 2)."""
    assert check(honest, "suite")["status"] == "passed", check(honest, "suite")
    assert honest["verdict"] == "pass"


@pytest.mark.slow
def test_a_broken_change_to_a_tox_project_fails(broken: dict[str, Any]) -> None:
    ran = check(broken, "suite")
    assert ran["status"] == "failed"
    assert "tests/test_calc.py::test_add_as_tox_runs_it" in ran["detail"]
    assert broken["verdict"] == "fail"
