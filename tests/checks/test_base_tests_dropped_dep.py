"""base-tests where the head dropped a test dependency (marshmallow 230aa279 dropped `pytz` from
its `tests` extra with the code that used it): the base's test files, put back, import a
module the head's install no longer brings. That is said as its own finding, at the manifest's
line, not as the base's tests failing on the head code. A real gate run per repository, the
dependency a local wheel `helperdep` installed through the test extra."""
from __future__ import annotations

import base64
import hashlib
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import PYPROJECT, project

from gate.checks import dropped_deps

pytestmark = pytest.mark.slow

WITH_DEP = PYPROJECT.replace('test = ["pytest"]', 'test = [\n  "pytest",\n  "helperdep",\n]')
CONFTEST = "import helperdep\n\nTHREE = helperdep.triple(1)\n"
TEST_DEP = "import helperdep\n\nfrom calc import add\n\n\ndef test_triple():\n" \
           "    assert helperdep.triple(2) == add(4, 2)\n"
TEST_PLAIN = "from calc import add\n\n\ndef test_triple():\n    assert 3 * 2 == add(4, 2)\n"


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _wheel(folder: Path) -> None:
    """A pure-Python wheel of `helperdep`, written by hand (no build, no index)."""
    files = {"helperdep/__init__.py": b"def triple(x):\n    return 3 * x\n",
             "helperdep-0.1.dist-info/METADATA":
                 b"Metadata-Version: 2.1\nName: helperdep\nVersion: 0.1\n",
             "helperdep-0.1.dist-info/WHEEL":
                 b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                 b"Tag: py3-none-any\n"}
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n"
                     for name, data in files.items())
    record += "helperdep-0.1.dist-info/RECORD,,\n"
    with zipfile.ZipFile(folder / "helperdep-0.1-py3-none-any.whl", "w") as whl:
        for name, data in files.items():
            whl.writestr(name, data)
        whl.writestr("helperdep-0.1.dist-info/RECORD", record)


@pytest.fixture(scope="module")
def with_helperdep(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """The session's wheelhouse and the `helperdep` wheel."""
    folder = tmp_path_factory.mktemp("wheels")
    for wheel in wheelhouse.iterdir():  # copies: the judged install does not see a link's target
        shutil.copy(wheel, folder / wheel.name)
    _wheel(folder)
    return folder


@pytest.fixture(scope="module")
def conftest_needs_it(tmp_path_factory: pytest.TempPathFactory,
                      with_helperdep: Path) -> dict[str, Any]:
    """The base's conftest imports `helperdep`: pytest exits 4 and names no test."""
    base = project(**{"pyproject.toml": WITH_DEP, "tests/conftest.py": CONFTEST})
    head: dict[str, str | None] = {"pyproject.toml": PYPROJECT, "tests/conftest.py": ""}
    return gate_report(tmp_path_factory.mktemp("conftest"), with_helperdep, base, head)


@pytest.fixture(scope="module")
def module_needs_it(tmp_path_factory: pytest.TempPathFactory,
                    with_helperdep: Path) -> dict[str, Any]:
    """A base test module imports `helperdep`: that module is not collected."""
    base = project(**{"pyproject.toml": WITH_DEP, "tests/test_dep.py": TEST_DEP})
    head: dict[str, str | None] = {"pyproject.toml": PYPROJECT, "tests/test_dep.py": TEST_PLAIN}
    return gate_report(tmp_path_factory.mktemp("module"), with_helperdep, base, head)


def _expected(importer: str) -> str:
    return (f"the base's test files import `helperdep` ({importer}), which the head's install "
            "no longer brings (the change dropped it from pyproject.toml's `test` extra): the "
            "base's tests could not run over the head code; a dependency the tests needed is "
            "gone")


def test_a_dependency_the_base_conftest_imports_dropped_is_said_at_the_manifest(
        conftest_needs_it: dict[str, Any]) -> None:
    result = check(conftest_needs_it, "base-tests")
    assert [(f["path"], f["line"], f["rule"], f["severity"], f["message"])
            for f in result["findings"]] == [
        ("pyproject.toml", 10, dropped_deps.RULE, "warning", _expected("tests/conftest.py"))]
    assert result["summary"] == (
        "1 base test file(s) (tests/test_calc.py) could not run over the head code: the head's "
        "install lacks `helperdep`, which the base's tests need")
    assert result["status"] == "failed"
    assert conftest_needs_it["verdict"] == "needs-review"


def test_a_dependency_a_base_test_module_imports_dropped_is_said_at_the_manifest(
        module_needs_it: dict[str, Any]) -> None:
    result = check(module_needs_it, "base-tests")
    assert [(f["path"], f["line"], f["rule"], f["message"]) for f in result["findings"]] == [
        ("pyproject.toml", 10, dropped_deps.RULE, _expected("tests/test_dep.py"))]
    assert "fail on the head code" not in result["summary"]
    assert module_needs_it["verdict"] == "needs-review"
