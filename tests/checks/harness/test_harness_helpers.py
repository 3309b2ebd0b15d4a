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
