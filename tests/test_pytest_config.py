"""pytest's configuration found as pytest 9 finds it: its own list of files, in its order
(pytest.toml, .pytest.toml, pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg)."""
from __future__ import annotations

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
