"""What base-tests puts back where the change touched the package's own test helpers (a module
the base's tests load as a pytest plugin or take fixtures from): the base's version, like a
test file, and every base test that loads it runs. Real repositories, real checkouts."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.checks import base_tree
from gate.engine import config
from gate.engine.context import DiffContext
from gate.execution import workspace
from gate.vcs import diff

Files = dict[str, str | None]

HELPER = "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n"
WEAKER = "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return None\n"
CODE = "def add(a, b):\n    return a + b\n"
TEST = "def test_zero(zero):\n    assert zero == 0\n"
BASE: Files = {"calc/__init__.py": CODE, "calc/testing.py": HELPER,
               "tests/unit/conftest.py": "pytest_plugins = ['calc.testing']\n",
               "tests/unit/test_zero.py": TEST, "tests/unit/deep/test_deep.py": TEST,
               "tests/other/test_other.py": "def test_other():\n    pass\n"}


def plan(tmp_path: Path, base: Files, head: Files) -> base_tree.BaseTree:
    repo, base_sha, head_sha = make_change(tmp_path / "r", base, head)
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    checkout = workspace.checkout(str(repo.path), head_sha, str(tmp_path / "checkout"))
    return base_tree.plan(ctx, checkout)


def test_a_changed_helper_comes_back_and_the_tests_that_load_it_run(tmp_path: Path) -> None:
    tree = plan(tmp_path, BASE, {"calc/testing.py": WEAKER, "calc/__init__.py": CODE + "\n"})
    assert tree.files == {"calc/testing.py": HELPER.encode()}
    assert tree.to_run == ["tests/unit/deep/test_deep.py", "tests/unit/test_zero.py"]
    assert tree.configs_changed  # not the suite's: the helper differs, nothing is reused


def test_a_helper_every_test_loads_runs_every_test(tmp_path: Path) -> None:
    base = {**BASE, "tests/unit/conftest.py": None,
            "pyproject.toml": "[project]\nname = 'calc'\n\n[project.entry-points.pytest11]\n"
                              "calc = 'calc.testing'\n"}
    tree = plan(tmp_path, base, {"calc/testing.py": WEAKER})
    assert tree.files == {"calc/testing.py": HELPER.encode()}
    assert tree.to_run == ["tests/other/test_other.py", "tests/unit/deep/test_deep.py",
                           "tests/unit/test_zero.py"]


def test_a_helper_the_head_deleted_comes_back(tmp_path: Path) -> None:
    tree = plan(tmp_path, BASE, {"calc/testing.py": None})
    assert tree.files == {"calc/testing.py": HELPER.encode()}
    assert "tests/unit/test_zero.py" in tree.to_run


def test_code_conftest_imports_is_not_put_back(tmp_path: Path) -> None:
    base = {**BASE, "tests/unit/conftest.py": "from calc import add\n"}
    tree = plan(tmp_path, base, {"calc/__init__.py": "def add(a, b):\n    return sum((a, b))\n",
                                 "calc/testing.py": WEAKER})
    assert (tree.files, tree.to_run, tree.configs_changed) == ({}, [], False)


def test_a_module_the_head_adds_in_the_helpers_place_is_removed(tmp_path: Path) -> None:
    """A package beside the helper, or the helper's module under src/, is what Python would
    import in its place: removed for the run, and the helper's tests run."""
    tree = plan(tmp_path, BASE, {"calc/testing/__init__.py": WEAKER,
                                 "src/calc/testing.py": WEAKER})
    assert tree.files == {"calc/testing.py": HELPER.encode(),
                          "calc/testing/__init__.py": None, "src/calc/testing.py": None}
    assert tree.to_run == ["tests/unit/deep/test_deep.py", "tests/unit/test_zero.py"]
