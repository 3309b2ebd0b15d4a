"""check-config: build and packaging files deleted or emptied, each case a real repository
read by `gate scan`."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.engine import runner
from gate.models import Report

SETUP_PY = "from setuptools import setup\n\nsetup(name='calc', test_suite='tests')\n"
PYPROJECT = ("[build-system]\nrequires = ['setuptools']\nbuild-backend = "
             "'setuptools.build_meta'\n\n[project]\nname = 'calc'\nversion = '1'\n")
BASE: dict[str, str | None] = {
    "setup.py": SETUP_PY,
    "pyproject.toml": PYPROJECT,
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2)\n",
}
Row = tuple[str, int, str, str]


def _found(tmp_path: Path, head: Mapping[str, str | None],
           base: Mapping[str, str | None] | None = None) -> list[Row]:
    make_change(tmp_path / "repo", {**BASE, **(base or {})}, head)
    report: Report = runner.scan(runner.Options(base="main", head="change",
                                                repo=str(tmp_path / "repo")))
    check = next(c for c in report.checks if c.id == "check-config")
    return [(f.path, f.line, f.rule, f.message) for f in check.findings
            if f.rule in ("build-file-removed", "build-system-removed",
                          "package-scripts-removed")]


def test_setup_py_deleted(tmp_path: Path) -> None:
    assert _found(tmp_path, {"setup.py": None}) == [
        ("setup.py", 1, "build-file-removed", "setup.py deleted: the project's build, install "
         "or test commands go with it; restore it, or have a person approve the removal")]


def test_setup_py_deleted_beside_a_pyproject_that_already_had_project(tmp_path: Path) -> None:
    assert [r[3].split(":")[0] for r in _found(tmp_path, {"setup.py": None})] == [
        "setup.py deleted"]  # BASE's pyproject.toml has [project] already: nothing moved


def test_setup_py_moved_away_or_emptied(tmp_path: Path) -> None:
    assert [r[3].split(":")[0] for r in _found(
        tmp_path / "moved", {"setup.py": None, "old/setup.py": SETUP_PY})] == ["setup.py deleted"]
    assert [r[3].split(":")[0] for r in _found(
        tmp_path / "emptied", {"setup.py": "\n  \n"})] == ["setup.py emptied"]


def test_build_system_and_scripts_cut_out(tmp_path: Path) -> None:
    package = '{"name": "calc", "scripts": {"build": "tsc", "test": "jest"}}\n'
    found = _found(tmp_path, {"pyproject.toml": "[project]\nname = 'calc'\nversion = '1'\n",
                              "package.json": '{"name": "calc"}\n'},
                   base={"package.json": package})
    assert [(r[0], r[2], r[3].split(":")[0]) for r in found] == [
        ("package.json", "package-scripts-removed",
         "package.json loses all its scripts (build, test)"),
        ("pyproject.toml", "build-system-removed", "pyproject.toml loses its [build-system]"),
    ]


@pytest.mark.parametrize("name", ["Makefile", "tox.ini", "noxfile.py", "go.mod", "Cargo.toml",
                                  "setup.cfg"])
def test_other_build_files_deleted(tmp_path: Path, name: str) -> None:
    found = _found(tmp_path, {name: None}, base={name: "[x]\nkey = 1\n"})
    assert [(r[0], r[2]) for r in found] == [(name, "build-file-removed")]


@pytest.mark.parametrize(("name", "base", "head"), [
    ("a whole sub-crate removed", {"crates/old/Cargo.toml": "[package]\nname = 'old'\n",
                                   "crates/old/src/lib.rs": "\n"},
     {"crates/old/Cargo.toml": None, "crates/old/src/lib.rs": None}),
    ("a test fixture's setup.py", {"tests/data/pkg/setup.py": SETUP_PY},
     {"tests/data/pkg/setup.py": None}),
    ("setup.py edited", {}, {"setup.py": SETUP_PY.replace("calc", "calc2")}),
    ("setup.cfg moved into pyproject's [project]", {"pyproject.toml": "[tool.black]\n",
                                                    "setup.cfg": "[metadata]\nname = calc\n"},
     {"setup.cfg": None, "pyproject.toml": PYPROJECT}),
    ("pyproject's build-system changed", {},
     {"pyproject.toml": PYPROJECT.replace("['setuptools']", "['setuptools>=61']")}),
    ("one script removed of several", {"package.json": '{"scripts": {"a": "x", "b": "y"}}\n'},
     {"package.json": '{"scripts": {"a": "x"}}\n'}),
])
def test_honest_changes_to_build_files(tmp_path: Path, name: str,
                                       base: dict[str, str | None],
                                       head: dict[str, str | None]) -> None:
    assert _found(tmp_path, head, base=base) == [], name
