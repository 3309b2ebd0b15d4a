"""The diff checks read a change to the package's own test helpers (a module the base's tests
load as a pytest plugin or take fixtures from) as a change to the tests: a test definition
removed from it is a removed test, a coverage pragma in it hides no code (real
repositories)."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks import escapes, tests_removed

CONTRACT = ("import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n\n\n"
            "class TestContract:\n    def test_add(self):\n        assert 1 + 1 == 2\n\n"
            "    def test_sub(self):\n        assert 1 - 1 == 0\n")
BASE: dict[str, str | None] = {
    "calc/__init__.py": "def add(a, b):\n    return a + b\n", "calc/testing.py": CONTRACT,
    "tests/conftest.py": "from calc.testing import *  # noqa: F403\n",
    "tests/test_calc.py": "from calc.testing import TestContract\n\n\n"
                          "class TestCalc(TestContract):\n    pass\n"}


def test_a_test_removed_from_a_helper_is_removed(tmp_path: Path) -> None:
    head = {"calc/testing.py": CONTRACT.replace(
        "\n    def test_sub(self):\n        assert 1 - 1 == 0\n", "")}
    assert found(run_check(tests_removed.run, tmp_path, BASE, head)) == [
        ("calc/testing.py", 13, "test-removed")]


def test_a_test_removed_from_code_conftest_imports_is_not_a_test(tmp_path: Path) -> None:
    """The same class in a module conftest imports no fixture from: code, whose
    `Test*` names are not the tests'."""
    base = {**BASE, "tests/conftest.py": "from calc import add  # noqa: F401\n"}
    code = CONTRACT.replace("@pytest.fixture\n", "")
    head = {"calc/testing.py": code.replace(
        "\n    def test_sub(self):\n        assert 1 - 1 == 0\n", "")}
    assert found(run_check(tests_removed.run, tmp_path, {**base, "calc/testing.py": code},
                           head)) == []


def test_a_coverage_pragma_in_a_helper_hides_no_code(tmp_path: Path) -> None:
    pragma = "\n\n@pytest.fixture\ndef two():  # pragma: no cover\n    return 2\n"
    assert found(run_check(escapes.run, tmp_path / "helper", BASE,
                           {"calc/testing.py": CONTRACT + pragma})) == []
    code = "\n\ndef two():  # pragma: no cover\n    return 2\n"
    assert found(run_check(escapes.run, tmp_path / "code", BASE,
                           {"calc/__init__.py": BASE["calc/__init__.py"] + code})) == [
        ("calc/__init__.py", 5, "pragma: no cover")]
