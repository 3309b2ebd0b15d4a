"""The one recogniser of pytest commands: every spelling a project uses, and what is not one."""
from __future__ import annotations

import pytest

from gate.outcomes.pytest_command import is_pytest, single_pytest_args


@pytest.mark.parametrize("command", [
    "pytest",
    "pytest -q tests",
    "py.test",
    "python -m pytest",
    "python3.12 -m pytest -x",
    "/usr/bin/python3 -m pytest",
    ".venv/bin/pytest -q",
    "uv run pytest",
    "poetry run pytest -q",
    "coverage run -m pytest",
    "PYTHONHASHSEED=0 pytest",
    "cd src && pytest",
    "pytest -q || true",
])
def test_a_command_that_runs_pytest(command: str) -> None:
    assert is_pytest(command)


@pytest.mark.parametrize("command", [
    "tox -e py",
    "make test",
    "npm test",
    "echo pytest",
    "python -m unittest",
    "python pytest_helper.py",
    "./run-pytest.sh",
    "nox -s tests",
    "pytest 'unclosed",
])
def test_a_command_that_does_not_run_pytest_itself(command: str) -> None:
    assert not is_pytest(command)


@pytest.mark.parametrize(("command", "args"), [
    ("pytest", []),
    (".venv/bin/pytest -q", ["-q"]),
    ("python3.12 -m pytest tests/unit", ["tests/unit"]),
    ("uv run pytest -k 'a or b'", ["-k", "a or b"]),
    ("tox -e py", None),
    ("pytest -q && echo done", None),
    ("pytest $FLAGS", None),
    ("pytest > log", None),
])
def test_only_a_single_invocation_can_take_more_paths(command: str,
                                                      args: list[str] | None) -> None:
    assert single_pytest_args(command) == args
