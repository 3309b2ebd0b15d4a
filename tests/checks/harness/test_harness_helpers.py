"""harness reads the package's own test helpers as conftest.py: a pytest plugin that imports
pytest's internals or defines hooks is at home there (agronholm/anyio f982b249: three
`framework-internals` findings on its plugin), while what changes the interpreter for every
test is still found (real repositories)."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks.harness import check as harness

PLUGIN = "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n"
REACH = ("from _pytest.python import CallSpec2\n\n\n"
         "def pytest_collection_modifyitems(items):\n    items.sort(key=str)\n")
BASE: dict[str, str | None] = {
    "calc/__init__.py": "def add(a, b):\n    return a + b\n", "calc/plugin.py": PLUGIN,
    "pyproject.toml": "[project]\nname = 'calc'\n\n[project.entry-points.pytest11]\n"
                      "calc = 'calc.plugin'\n",
    "tests/test_zero.py": "def test_zero(zero):\n    assert zero == 0\n"}


def test_the_package_plugin_may_reach_into_pytest(tmp_path: Path) -> None:
    assert found(run_check(harness.run, tmp_path, BASE,
                           {"calc/plugin.py": REACH + PLUGIN})) == []


def test_the_same_reach_in_code_is_found(tmp_path: Path) -> None:
    assert found(run_check(harness.run, tmp_path, BASE, {"calc/core.py": REACH})) == [
        ("calc/core.py", 1, "framework-internals"), ("calc/core.py", 4, "pytest-hook")]


def test_a_builtin_patched_in_the_plugin_is_still_found(tmp_path: Path) -> None:
    patched = "import builtins\n\nbuiltins.AssertionError = Exception\n"
    assert found(run_check(harness.run, tmp_path, BASE,
                           {"calc/plugin.py": patched + PLUGIN})) == [
        ("calc/plugin.py", 3, "builtins-patched")]


STARRED: dict[str, str | None] = {
    "calc/__init__.py": "import pytest\n\n\ndef add(a, b):\n    return a + b\n",
    "tests/conftest.py": "from calc import *  # noqa: F403\n",
    "tests/test_add.py": "from calc import add\n\n\ndef test_add(tmp_path):\n"
                         "    assert add(2, 3) == 5\n"}


def test_a_fixture_added_to_code_a_conftest_star_imports_is_found(tmp_path: Path) -> None:
    """The head puts a `tmp_path` of its own into the code the base's conftest imports with
    `*`: it overrides pytest's for every test under that conftest, base-tests' included,
    which puts tests back, not code."""
    code = STARRED["calc/__init__.py"] or ""
    head = {"calc/__init__.py": code + "\n\n@pytest.fixture\ndef tmp_path():\n"
                                       "    return None\n"}
    assert found(run_check(harness.run, tmp_path, STARRED, head)) == [
        ("calc/__init__.py", 9, "fixture-injected")]


def test_code_conftest_imports_by_name_and_unchanged_fixtures_raise_nothing(
        tmp_path: Path) -> None:
    code = STARRED["calc/__init__.py"] or ""
    by_name = {**STARRED, "tests/conftest.py": "from calc import add  # noqa: F401\n"}
    fixture = "\n\n@pytest.fixture\ndef zero():\n    return 0\n"
    assert found(run_check(harness.run, tmp_path / "a", by_name,
                           {"calc/__init__.py": code + fixture})) == []
    assert found(run_check(harness.run, tmp_path / "b", STARRED,
                           {"calc/__init__.py": code + "\n\ndef sub(a, b):\n    return a - b\n"}
                           )) == []
