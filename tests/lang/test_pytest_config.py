"""pytest's configuration found as pytest 9 finds it: its own list of files, in its order
(pytest.toml, .pytest.toml, pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gate.lang import pytest_config

TOML = '[pytest]\npythonpath = ["shim"]\naddopts = ["-q"]\n'


def _find(files: dict[str, str]) -> pytest_config.PytestConfig:
    return pytest_config.find(lambda paths: {p: files[p].encode() if p in files else None
                                             for p in paths})


def test_pytest_toml_comes_first() -> None:
    found = _find({"pytest.toml": TOML, "pytest.ini": "[pytest]\naddopts = -x\n",
                   "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-x"\n'})
    assert (found.path, found.options) == ("pytest.toml", {"pythonpath": ["shim"],
                                                           "addopts": ["-q"]})
    assert "pythonpath =\n    shim" in found.to_ini()


def test_an_empty_pytest_toml_is_still_the_config_file() -> None:
    found = _find({".pytest.toml": "", "setup.cfg": "[tool:pytest]\naddopts = -x\n"})
    assert (found.path, found.options) == (".pytest.toml", {})


@pytest.mark.parametrize("pyproject", [
    '[tool.pytest]\naddopts = ["-x"]\n',  # pytest 9's native table
    '[tool.pytest.ini_options]\naddopts = ["-x"]\n',
])
def test_pyproject_either_table(pyproject: str) -> None:
    found = _find({"pyproject.toml": pyproject, "tox.ini": "[pytest]\naddopts = -q\n"})
    assert (found.path, found.options) == ("pyproject.toml", {"addopts": ["-x"]})


def test_without_pytest_files_tox_then_setup_cfg() -> None:
    assert _find({"tox.ini": "[pytest]\naddopts = -q\n",
                  "setup.cfg": "[tool:pytest]\naddopts = -x\n"}).path == "tox.ini"
    assert _find({"pyproject.toml": "[project]\nname = 'x'\n"}).path is None


def test_a_list_item_with_a_space_stays_one_argument_in_the_ini(tmp_path: Path) -> None:
    """packaging 55cbf1b9: `addopts = ["-m", "not property"]` written as the lines `-m` and
    `not property` made pytest read `property` as a path (exit 4), a base-tests failure of
    31 files that were never run. Run by pytest itself: the marker's test is deselected."""
    pyproject = ('[tool.pytest.ini_options]\naddopts = ["-m", "not property"]\n'
                 'markers = ["property: property-based tests (opt-in)"]\n')
    (tmp_path / "test_it.py").write_text(
        "import pytest\n\n\n@pytest.mark.property\ndef test_slow():\n    assert False\n\n\n"
        "def test_fast():\n    assert True\n")
    ini = tmp_path / "base.ini"
    ini.write_text(_find({"pyproject.toml": pyproject}).to_ini())
    run = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ini), "--rootdir",
                          str(tmp_path), "-p", "no:cacheprovider", str(tmp_path)],
                         capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 1 deselected" in run.stdout


@pytest.mark.parametrize(("norecursedirs", "path", "reached"), [
    (None, "tests/test_a.py", True),
    (None, "tests/build/test_a.py", False),  # pytest's default patterns
    (None, ".hidden/test_a.py", False),
    ('"tests/mypy_test_cases"', "tests/mypy_test_cases/test_a.py", False),  # marshmallow
    ('"tests/mypy_test_cases"', "tests/test_mypy_test_cases.py", True),
    ('"tests/mypy_test_cases"', "tests/build/test_a.py", True),  # its own list, not the default
    ('["fixtures*", "docs"]', "tests/fixtures_py/sub/test_a.py", False),
])
def test_recurses_into_as_norecursedirs_says(norecursedirs: str | None, path: str,
                                            reached: bool) -> None:
    table = "[tool.pytest.ini_options]\n" + (
        f"norecursedirs = {norecursedirs}\n" if norecursedirs else "")
    assert _find({"pyproject.toml": table}).recurses_into(path) is reached
