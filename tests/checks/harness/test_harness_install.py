"""harness, end to end: a change that makes broken code pass through what the gate's own
install puts in place (a pytest plugin entry point, a .pth written by setup.py, a conftest.py
written into the checkout) ends in needs-review, each at its line; an honest change with the
same real install raises nothing. Real git, a real `pip install` (offline, into the run's fresh
environment) and real pytest."""
from __future__ import annotations

import json
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import Repo, make_change

from gate import cli

pytestmark = pytest.mark.slow

GATE_PYTEST = sysconfig.get_paths()["purelib"]  # where this pytest lives: the fresh env has none
INSTALL = "python -m pip install -q --no-index --no-build-isolation --no-deps"
GATE_TOML = (f'install = "{INSTALL} ."\n'
             f'test = "env PYTHONPATH={GATE_PYTEST} python -m pytest -q -p no:cacheprovider"\n'
             "runs = 1\n")
PYPROJECT = ('[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
             '\n[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.setuptools]\n'
             'py-modules = ["calc"]\n')
CALC = "def add(a, b):\n    return a + b\n"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
BASE = {".gate.toml": GATE_TOML, "pyproject.toml": PYPROJECT, "calc.py": CALC,
        "tests/test_calc.py": TEST}
GREEN = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
         "def pytest_runtest_makereport(item, call):\n"
         "    outcome = yield\n"
         "    outcome.get_result().outcome = 'passed'\n")


def judge(capsys: pytest.CaptureFixture[str], tmp_path: Path, base: dict[str, str],
          head: dict[str, str | None]) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(tmp_path / "r", base, head)
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def harness(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    check = next(c for c in report["checks"] if c["id"] == "harness")
    return [(f["path"], f["line"], f["rule"]) for f in check["findings"]]


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["status"] for c in report["checks"]}


def test_a_plugin_entry_point_installed_by_the_gate_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = PYPROJECT.replace('["calc"]', '["calc", "calc_green"]') + (
        '\n[project.entry-points.pytest11]\ngreen = "calc_green"\n')
    code, report = judge(capsys, tmp_path, BASE, {
        "calc.py": BROKEN, "calc_green.py": GREEN, "pyproject.toml": pyproject})
    assert statuses(report)["suite"] == "passed"  # fooled: the plugin turned the failure green
    assert harness(report) == [("calc_green.py", 5, "pytest-hook"),
                               ("pyproject.toml", 13, "test-plugin-entry-point"),
                               ("calc_green.py", 1, "plugin-loaded-only-at-head"),
                               # pytest's registry: a deciding hook of code under test
                               ("calc_green.py", 4, "framework-changed-in-run")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_pth_file_written_by_setup_py_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = ("import os\nimport sysconfig\n\nfrom setuptools import setup\n\n"
             "site = sysconfig.get_paths()['purelib']\n"
             "with open(os.path.join(site, 'zz_green.pth'), 'w') as out:\n"
             "    out.write('import sys\\n')\n\nsetup()\n")
    code, report = judge(capsys, tmp_path, {**BASE, "setup.py": "from setuptools import setup\n"
                                            "\nsetup()\n"}, {"setup.py": setup})
    assert statuses(report)["install"] == "passed"
    assert harness(report) == [("setup.py", 6, "setup-writes-site"),
                               ("setup.py", 7, "setup-writes-site"),
                               ("site-packages/zz_green.pth", 1, "install-site-hook")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_conftest_written_by_the_install_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {**BASE, ".gate.toml": GATE_TOML.replace(f"{INSTALL} .", "python install.py"),
            "install.py": "print('nothing to build')\n"}
    writer = f"with open('tests/conftest.py', 'w') as out:\n    out.write({GREEN!r})\n"
    code, report = judge(capsys, tmp_path, base, {"calc.py": BROKEN, "install.py": writer})
    assert statuses(report)["suite"] == "passed"  # fooled by the conftest.py nobody committed
    assert harness(report) == [("tests/conftest.py", 1, "install-left-files")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_an_honest_change_with_a_real_editable_install_raises_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {**BASE, ".gate.toml": GATE_TOML.replace(f"{INSTALL} .", f"{INSTALL} -e .")}
    code, report = judge(capsys, tmp_path, base, {
        "calc.py": CALC + "\n\ndef sub(a, b):\n    return a - b\n",
        "tests/test_sub.py": "from calc import sub\n\n\ndef test_sub():\n"
                             "    assert sub(5, 3) == 2\n"})
    assert statuses(report)["install"] == "passed"
    assert harness(report) == []
    assert (report["verdict"], code) == ("pass", 0), report


def _green_wheel(path: Path, module: str = "pytest_green") -> None:
    """A wheel of a pytest plugin that turns every failure green, with a .pth file that runs at
    every interpreter start: binary in the diff, so no diff rule reads them; only the run shows
    that pytest loaded the plugin and the install shows the .pth."""
    info = "pytest_green-0.1.dist-info"
    files = {module.replace(".", "/") + ".py": GREEN, "zz_green_boot.pth": "import os\n",
             f"{info}/METADATA": "Metadata-Version: 2.1\nName: pytest-green\nVersion: 0.1\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n",
             f"{info}/entry_points.txt": f"[pytest11]\ngreen = {module}\n",
             **({module.split(".")[0] + "/__init__.py": ""} if "." in module else {})}
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
        wheel.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n")


def _with_wheel(tmp_path: Path, base_requirements: str, head: dict[str, str | None],
                module: str = "pytest_green") -> Repo:
    wheel = "vendor/pytest_green-0.1-py3-none-any.whl"
    repo = Repo(tmp_path / "r")
    repo.commit({**BASE, ".gate.toml": GATE_TOML.replace(f"{INSTALL} .",
                                                         f"{INSTALL} -r requirements.txt"),
                 "requirements.txt": base_requirements}, "base")
    repo.branch("change")
    (repo.path / "vendor").mkdir()
    _green_wheel(repo.path / wheel, module)
    repo.commit({**head, "requirements.txt": f".\n{wheel}\n"}, "head")
    return repo


def _judge_repo(capsys: pytest.CaptureFixture[str], repo: Repo) -> tuple[int, dict[str, Any]]:
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_plugin_that_no_diff_line_shows_is_flagged_because_only_the_head_loaded_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _with_wheel(tmp_path, ".\n", {"calc.py": BROKEN})
    code, report = _judge_repo(capsys, repo)
    assert statuses(report)["suite"] == "passed"  # fooled: the wheel's plugin turned it green
    assert harness(report) == [("requirements.txt", 2, "plugin-loaded-only-at-head"),
                               ("site-packages/zz_green_boot.pth", 1, "install-site-hook")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_plugin_module_named_like_a_conftest_is_still_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cheapest way out of the list: call the plugin module `conftest` (conftest files
    are test files and are not listed). Only a conftest under the project's root is left out."""
    repo = _with_wheel(tmp_path, ".\n", {"calc.py": BROKEN}, module="greenery.conftest")
    code, report = _judge_repo(capsys, repo)
    assert statuses(report)["suite"] == "passed"  # fooled: the wheel's plugin turned it green
    assert ("requirements.txt", 2, "plugin-loaded-only-at-head") in harness(report)
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_plugin_the_base_already_loaded_raises_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wheel = "vendor/pytest_green-0.1-py3-none-any.whl"
    repo = Repo(tmp_path / "r")
    (repo.path / "vendor").mkdir()
    _green_wheel(repo.path / wheel)
    repo.commit({**BASE, ".gate.toml": GATE_TOML.replace(f"{INSTALL} .",
                                                         f"{INSTALL} -r requirements.txt"),
                 "requirements.txt": f".\n{wheel}\n"}, "base")
    repo.branch("change")
    repo.commit({"calc.py": CALC + "\n\ndef sub(a, b):\n    return a - b\n"}, "head")
    code, report = _judge_repo(capsys, repo)
    assert harness(report) == []
    assert (report["verdict"], code) == ("pass", 0), report


def test_a_head_that_keeps_the_gates_session_plugin_out_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = PYPROJECT + '\n[tool.pytest.ini_options]\naddopts = "-p no:gate_sessions"\n'
    code, report = judge(capsys, tmp_path, BASE, {"pyproject.toml": pyproject})
    assert ("pyproject.toml", 1, "plugin-list-missing-at-head") in harness(report)
    assert report["verdict"] == "needs-review" and code == 3
