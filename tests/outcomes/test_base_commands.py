"""The detected test command follows the base's files (`gate/outcomes/base_commands.py`): a
head that narrows the directories its CI and tox name to pytest does not narrow the suite
that judges it. The attack and its end-to-end run are below the fast tests."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.gitrepo import Repo
from helpers.pyproject_fixture import project

from gate.outcomes import base_commands

TOX_BOTH = "[testenv]\ncommands = pytest {posargs:tests more}\n"
TOX_TESTS = "[testenv]\ncommands = pytest {posargs:tests}\n"
TEST_MORE = "from calc import sub\n\n\ndef test_sub_more():\n    assert sub(9, 4) == 5\n"
BROKEN_SUB = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n"


def test_the_head_runs_the_command_the_bases_files_imply(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit(project(**{"tox.ini": TOX_BOTH, "more/test_more.py": TEST_MORE}))
    repo.commit({"tox.ini": TOX_TESTS})  # the head's checkout: the narrowed tox.ini
    assert base_commands.test_command(str(repo.path), base, None, str(repo.path)) == (
        "python -m pytest -o 'testpaths=tests more'")


def test_a_configured_command_is_the_command(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit(project(**{"tox.ini": TOX_BOTH}))
    assert base_commands.test_command(str(repo.path), base, "make check",
                                      str(repo.path)) == "make check"


def test_a_base_that_implies_none_leaves_it_to_the_head(tmp_path: Path) -> None:
    """A base with no project files yet (the change makes the project)."""
    repo = Repo(tmp_path / "r")
    base = repo.commit({"README.md": "soon\n"})
    repo.commit(project())
    assert base_commands.test_command(str(repo.path), base, None,
                                      str(repo.path)) == "python -m pytest"


def test_the_base_files_are_laid_out_as_detection_reads_them(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit(project(**{".github/workflows/ci.yml": "on: push\n",
                                  "more/deep/test_x.py": "", "tox.ini": TOX_BOTH}))
    with base_commands.laid_out(str(repo.path), base) as root:
        laid = sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))
    assert laid == [".github", ".github/workflows", ".github/workflows/ci.yml", "calc",
                    "more", "more/deep", "pyproject.toml", "tests", "tox.ini"]


@pytest.fixture(scope="module")
def narrowed(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """The cheat: `sub` broken, and tox.ini no longer names `more/`, whose test catches it."""
    base = project(**{"tox.ini": TOX_BOTH, "more/test_more.py": TEST_MORE,
                      "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                                            "    assert add(2, 3) == 5\n"})
    head: dict[str, str | None] = {"tox.ini": TOX_TESTS, "calc/__init__.py": BROKEN_SUB}
    return gate_report(tmp_path_factory.mktemp("narrowed"), wheelhouse, base, head)


@pytest.mark.slow
def test_a_narrowed_tox_does_not_narrow_the_judged_suite(narrowed: dict[str, Any]) -> None:
    """Before: the head's run collected tests/ alone and passed; only the comparison with the
    base's outcomes named the test no longer run. Now the head's run runs it, and it fails."""
    ran = check(narrowed, "suite")
    assert ran["status"] == "failed"
    assert "more/test_more.py::test_sub_more" in ran["detail"]
    assert narrowed["verdict"] == "fail"
    assert [f["path"] for f in check(narrowed, "check-config")["findings"]] == ["tox.ini"]
