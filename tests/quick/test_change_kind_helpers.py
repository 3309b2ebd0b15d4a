"""`gate run --quick` reads a change to the package's own test helpers as a change to the
tests (real repositories)."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.quick import change_kind
from gate.vcs import diff

BASE: dict[str, str | None] = {
    "calc/__init__.py": "def add(a, b):\n    return a + b\n",
    "calc/testing.py": "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n",
    "tests/conftest.py": "pytest_plugins = ['calc.testing']\n",
    "tests/test_zero.py": "def test_zero(zero):\n    assert zero == 0\n"}


def _kind(tmp_path: Path, head: dict[str, str | None]) -> str:
    repo, base_sha, head_sha = make_change(tmp_path, BASE, head)
    return change_kind.of(DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                                      diff.changed_files(str(repo.path), base_sha, head_sha)))


def test_code_and_its_helper_is_a_bug_fix(tmp_path: Path) -> None:
    assert _kind(tmp_path / "a", {"calc/testing.py": "import pytest\n",
                                  "calc/__init__.py": "def add(a, b):\n    return b + a\n"}
                 ) == "code+tests"
    assert _kind(tmp_path / "b", {"calc/testing.py": "import pytest\n"}) == "tests"
