"""pinned over a change to the package's own pytest plugin (pytest-dev/pyfakefs 9f38b89 fixes
its plugin and a module beside it, and adds a test of the fix): the head's new test, run over
the base's code with the base's plugin, fails there, so it pins the change; with the head's
plugin it passed and the change was said to pass at base. A real gate run."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import PYPROJECT

pytestmark = pytest.mark.slow

PLUGIN = "import pytest\n\nfrom calc import add\n\n\n@pytest.fixture\ndef total():\n" \
         "    return add(1, 1) + 1\n"


def test_a_fix_in_the_package_plugin_is_pinned_by_its_test(
        tmp_path: Path, wheelhouse: Path) -> None:
    base = {"pyproject.toml": PYPROJECT, "calc/__init__.py": "def add(a, b):\n    return a + b\n",
            "calc/testing.py": PLUGIN, "tests/conftest.py": "pytest_plugins = ['calc.testing']\n",
            "tests/test_add.py": "from calc import add\n\n\ndef test_add():\n"
                                 "    assert add(2, 3) == 5\n"}
    report = gate_report(tmp_path, wheelhouse, base, {
        "calc/__init__.py": "def add(a, b):\n    return sum((a, b))\n",
        "calc/testing.py": PLUGIN.replace("add(1, 1) + 1", "add(1, 1)"),
        "tests/test_total.py": "def test_total(total):\n    assert total == 2\n"},
        "--pinned", "review")
    pinned = check(report, "pinned")
    assert pinned["findings"] == [], pinned
    assert "pinned by 1 test(s) that fail on the base code" in pinned["summary"]
    assert check(report, "base-tests")["status"] == "passed"
