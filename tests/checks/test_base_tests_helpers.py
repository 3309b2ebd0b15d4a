"""base-tests where the package ships its own test helpers (issue 38, class 6): a fixture
weakened in the package's pytest plugin (`calc/testing.py`), loaded through `pytest_plugins`
in a conftest, a `pytest11` entry point or a star import from conftest, is put back from the
base like a test file, so that the base's tests run with the base's fixture over the head's
broken code. A real gate run each, the project installed from a local wheelhouse."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import PYPROJECT

pytestmark = pytest.mark.slow

CALC = "def add(a, b):\n    return a + b\n"
BROKEN = "def add(a, b):\n    return a - b\n"
# The helper: a fixture that checks `add` for the tests.
HELPER = """\
import pytest

from calc import add


@pytest.fixture
def check_add():
    def check(a, b, want):
        assert add(a, b) == want
    return check
"""
# The cheat: the same fixture, checking nothing.
WEAKENED = """\
import pytest


@pytest.fixture
def check_add():
    def check(a, b, want):
        return None
    return check
"""
TEST = "def test_add(check_add):\n    check_add(2, 3, 5)\n"
ENTRY_POINT = PYPROJECT + '\n[project.entry-points.pytest11]\ncalc = "calc.testing"\n'

WAYS: dict[str, dict[str, str | None]] = {
    "pytest_plugins": {"tests/conftest.py": 'pytest_plugins = ["calc.testing"]\n'},
    "entry-point": {"pyproject.toml": ENTRY_POINT},
    "import-from-conftest": {"tests/conftest.py": "from calc.testing import *  # noqa\n"},
}


def _base(way: str) -> dict[str, str | None]:
    return {"pyproject.toml": PYPROJECT, "calc/__init__.py": CALC, "calc/testing.py": HELPER,
            "tests/test_calc.py": TEST, **WAYS[way]}


def _run(tmp_path: Path, wheelhouse: Path, base: dict[str, str | None],
         head: dict[str, str | None]) -> dict[str, Any]:
    return gate_report(tmp_path, wheelhouse, base, head, "--pinned", "off")


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_fixture_weakened_in_the_package_plugin_is_put_back(
        tmp_path: Path, wheelhouse: Path, way: str) -> None:
    report = _run(tmp_path, wheelhouse, _base(way),
                  {"calc/__init__.py": BROKEN, "calc/testing.py": WEAKENED})
    assert check(report, "suite")["status"] == "passed"  # the weakened fixture hides it
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert "test_add" in base_tests["summary"]
    assert [(f["path"], f["rule"]) for f in base_tests["findings"]] == [
        ("tests/test_calc.py", "base-test-failed")]
    assert report["verdict"] != "pass"


def test_a_fixture_moved_from_conftest_into_the_package_is_still_seen(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The head moves the fixture out of the test tree into the package, weakened, and
    imports it from conftest: the base's conftest comes back with the fixture it had."""
    base = {"pyproject.toml": PYPROJECT, "calc/__init__.py": CALC,
            "tests/conftest.py": HELPER, "tests/test_calc.py": TEST}
    report = _run(tmp_path, wheelhouse, base, {
        "calc/__init__.py": BROKEN, "calc/testing.py": WEAKENED,
        "tests/conftest.py": "from calc.testing import *  # noqa\n"})
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert "test_add" in base_tests["summary"]
    assert report["verdict"] != "pass"


def test_an_honest_change_to_code_conftest_imports_gains_no_finding(
        tmp_path: Path, wheelhouse: Path) -> None:
    """conftest imports the code under test, not a helper: a refactor of it is code, and
    nothing of the tests is put back or rerun for it."""
    conftest = ("import pytest\n\nfrom calc import add\n\n\n@pytest.fixture\n"
                "def check_add():\n    def check(a, b, want):\n"
                "        assert add(a, b) == want\n    return check\n")
    base = {"pyproject.toml": PYPROJECT, "calc/__init__.py": CALC,
            "tests/conftest.py": conftest, "tests/test_calc.py": TEST}
    report = _run(tmp_path, wheelhouse, base,
                  {"calc/__init__.py": "def add(a, b):\n    return sum((a, b))\n"})
    assert check(report, "base-tests")["summary"] == "no test file changed"
    assert report["verdict"] == "pass", [c for c in report["checks"] if c["findings"]]


def test_an_honest_change_to_the_package_plugin_passes(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The helper gains a fixture and a test uses it: the base's tests, run with the base's
    helper over the head's code, pass."""
    more = HELPER + "\n\n@pytest.fixture\ndef zero():\n    return 0\n"
    report = _run(tmp_path, wheelhouse, _base("pytest_plugins"), {
        "calc/testing.py": more,
        "tests/test_zero.py": "from calc import add\n\n\ndef test_zero(zero):\n"
                              "    assert add(zero, zero) == 0\n"})
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "passed", base_tests
    assert report["verdict"] == "pass", [c for c in report["checks"] if c["findings"]]


def test_a_helper_fixed_for_todays_pytest_is_not_the_changes_doing(
        tmp_path: Path, wheelhouse: Path) -> None:
    """agronholm/anyio f982b249: the base's plugin imports a name the pytest of the day no
    longer has, so the base's own tests run nothing; the head fixes the import. The base's
    plugin, put back, runs nothing over the head code either: nothing to compare, no
    finding."""
    gone = "from _pytest.python import NoSuchNameAnyMore  # noqa: F401\n" + HELPER
    report = _run(tmp_path, wheelhouse, {**_base("pytest_plugins"), "calc/testing.py": gone},
                  {"calc/testing.py": HELPER})
    assert check(report, "suite")["status"] == "passed"
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "passed", base_tests
    assert "nor did the base's own tests" in base_tests["summary"]
    assert report["verdict"] == "pass", [c for c in report["checks"] if c["findings"]]


def test_a_package_that_shadows_the_helper_is_taken_away(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The head leaves calc/testing.py alone and adds calc/testing/__init__.py, which Python
    imports in its place, with the weakened fixture: base-tests removes it for the run."""
    report = _run(tmp_path, wheelhouse, _base("pytest_plugins"),
                  {"calc/__init__.py": BROKEN, "calc/testing/__init__.py": WEAKENED})
    assert check(report, "suite")["status"] == "passed"
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert "test_add" in base_tests["summary"]
