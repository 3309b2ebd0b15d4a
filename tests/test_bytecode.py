"""The fresh environment's packages come with their bytecode (`installer.compiled_at_install`):
each judged command sees the environment through an overlay of its own, so bytecode it writes
goes with it, and a module compiled at no install is compiled again by every command."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.pyproject_fixture import project
from test_runtime_identity import _gate, check

pytestmark = pytest.mark.slow

TEST_COMPILED = """\
import importlib.util
import os
import sys

import _pytest.python


def test_pytest_came_with_its_bytecode():
    assert sys.dont_write_bytecode  # so none of it was written by this run
    assert os.path.exists(importlib.util.cache_from_source(_pytest.python.__file__))
"""


@pytest.fixture
def compiled(tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch,
             ) -> dict[str, Any]:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("UV_COMPILE_BYTECODE", raising=False)
    head: dict[str, str | None] = {"tests/test_compiled.py": TEST_COMPILED}
    return _gate(tmp_path, wheelhouse, project(), head, "--no-cache")


def test_the_installed_packages_have_their_bytecode(compiled: dict[str, Any]) -> None:
    ran = check(compiled, "suite")
    assert ran["status"] == "passed", ran["detail"]
    assert ran["summary"].startswith("1 of 1 runs passed, 3/3 tests")
