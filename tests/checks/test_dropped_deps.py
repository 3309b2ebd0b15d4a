"""What base-tests reads to say that the head dropped a dependency the base's tests need
(gate/checks/dropped_deps.py): the requirements a manifest's lists lost, the modules a
collection stopped at, and which of those the base's files import. End to end:
test_base_tests_dropped_dep.py."""
from __future__ import annotations

from gate.checks import dropped_deps
from gate.outcomes.record import CaseResult

BASE = """\
[project]
name = "m"
dependencies = ["attrs"]

[project.optional-dependencies]
tests = ["pytest", "pytz>=2020", "simplejson"]

[dependency-groups]
dev = ["Python_Dateutil"]
"""
HEAD = """\
[project]
name = "m"
dependencies = ["attrs"]

[project.optional-dependencies]
tests = ["pytest", "simplejson"]
"""
CONFTEST_FAILED = """\
ImportError while loading conftest '/w/tests/conftest.py'.
tests/conftest.py:5: in <module>
    from tests.base import User
tests/base.py:9: in <module>
    import pytz
E   ModuleNotFoundError: No module named 'pytz'
"""


def test_the_requirements_a_list_lost_are_named_with_the_list_and_its_head_line() -> None:
    assert dropped_deps.dropped(BASE, HEAD) == (
        dropped_deps.Dropped("pytz", "pyproject.toml's `tests` extra", 6),
        dropped_deps.Dropped("python-dateutil", "pyproject.toml's `dev` dependency group", 1))
    assert dropped_deps.dropped(HEAD, HEAD) == ()
    assert dropped_deps.dropped(BASE, "not toml [") != ()


def test_the_missing_modules_are_read_where_a_conftest_or_a_module_did_not_import() -> None:
    assert dropped_deps.missing_modules([], "noise\n" + CONFTEST_FAILED) == ["pytz"]
    failed = [CaseResult("tests/test_a.py", "tests/test_a.py", None, "failed",
                         "not collected: ModuleNotFoundError: No module named 'yaml'"),
              CaseResult("tests/test_b.py", "tests/test_b.py", None, "failed",
                         "not collected: ModuleNotFoundError: No module named 'calc.gone'"),
              CaseResult("tests/test_a.py::test_x", "tests/test_a.py", 3, "failed",
                         "ModuleNotFoundError: No module named 'json5'")]
    # not a test's own failure; not a submodule the head's own package no longer has
    assert dropped_deps.missing_modules(failed, "") == ["yaml"]


def test_a_missing_module_neither_imported_nor_dropped_is_not_said_as_dropped() -> None:
    files: dict[str, bytes | None] = {"tests/base.py": b"import os\nimport pytz\n",
                                      "tests/data.json": b"{}", "tests/gone.py": None}
    manifest = dropped_deps.dropped(BASE, HEAD)
    found = dropped_deps.findings(["pytz", "dateutil", "lxml"], files, manifest)
    assert list(found) == ["pytz", "dateutil"]
    assert (found["pytz"].path, found["pytz"].line) == ("pyproject.toml", 6)
    assert found["dateutil"].message.startswith("the base's tests need `dateutil`, which the "
                                                "head's install no longer brings")
    imported = dropped_deps.findings(["pytz"], files, ())["pytz"]
    assert (imported.path, imported.line) == ("tests/base.py", 2)
    assert "which the head's install does not bring:" in imported.message
