"""harness's static rules, read as an attacker would write them: each attempt to change how the
tests run from outside the tests is one exact finding; the honest look-alikes are none. Each
case is a real repository (base and head commits) scanned by the check."""
from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.checks.harness import check as harness
from gate.checks.harness import leftovers
from gate.engine import config
from gate.engine.context import DiffContext
from gate.execution import site_hooks
from gate.vcs import diff

CALC = "def add(a, b):\n    return a + b\n"


def _found(tmp_path: Path, files: dict[str, str | None]) -> list[tuple[str, int, str]]:
    repo, base, head = make_change(tmp_path / "repo", {"calc.py": CALC}, files)
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    return [(f.path, f.line, f.rule) for f in harness.run(ctx).findings]


ATTACKS = [  # (what the attacker adds to calc.py, its line, the rule)
    ("import builtins as b\nb.AssertionError = Exception\n", 4, "builtins-patched"),
    ("from builtins import __dict__ as d\nimport builtins\nbuiltins.__dict__['len'] = None\n", 5,
     "builtins-patched"),
    ("import builtins\nvars(builtins)['AssertionError'] = Exception\n", 4, "builtins-patched"),
    ("globals()['__builtins__']['AssertionError'] = Exception\n", 3, "builtins-patched"),
    ("setattr(__import__('builtins'), 'print', None)\n", 3, "builtins-patched"),
    ("from unittest import TestCase as T\nT.run = lambda self, r=None: None\n", 4,
     "framework-patched"),
    ("import unittest\ndel unittest.TestCase.fail\n", 4, "framework-patched"),
    ("import pytest\npytest.fail = lambda *a, **k: None\n", 4, "framework-patched"),
    ("import importlib\nimportlib.import_module('_pytest.runner').call_and_report = None\n", 4,
     "framework-patched"),
    ("import sys\nsys.modules['unittest'] = sys.modules['calc']\n", 4, "sys-modules-swap"),
    ("import os\nQUICK = os.getenv('PYTEST_XDIST_WORKER') is not None\n", 4,
     "test-run-detected"),
    ("from os import environ\nON_CI = 'CI' in environ\n", 4, "ci-env-read"),
    ("def pytest_runtest_makereport(item, call):\n    pass\n", 3, "pytest-hook"),
    ("import os\nON_CI = os.environ.get('GITHUB_ACTIONS')\n", 4, "ci-env-read"),
    # code that knows it is judged (issue 25)
    ("import os\nJUDGED = os.environ.get('PYTEST_CURRENT_TEST')\n", 4, "test-run-detected"),
    ("import sys\nTESTED = sys.modules.get('_pytest.runner') is not None\n", 4,
     "test-run-detected"),
    ("import inspect\n\n\ndef mul(a, b):\n"
     "    if any(f.function.startswith('test_') for f in inspect.stack()):\n"
     "        return a * b\n    return a + b\n", 7, "test-run-detected"),
    ("import sys\n\n\ndef mul(a, b):\n"
     "    caller = sys._getframe(1).f_globals.get('__name__', '')\n"
     "    return a * b if 'test' in caller else 0\n", 7, "test-run-detected"),
    ("def judged():\n    with open('/proc/1/cmdline', 'rb') as f:\n"
     "        return b'' + f.read()\n", 4, "test-run-detected"),
    ("import os\nJUDGED = 'GATE_JUNIT' in os.environ\n", 4, "test-run-detected"),
    # the varied run told apart by its clock's settings (a time bomb that knows that run)
    ("import os\nVARIED = os.path.exists('/etc/faketimerc')\n", 4, "test-run-detected"),
    ("from pathlib import Path\nVARIED = Path('/etc/ld.so.preload').is_file()\n", 4,
     "test-run-detected"),
    ("from datetime import date\n\n\ndef mul(a, b):\n"
     "    if date.today() >= date(2027, 1, 1):\n        return 0\n    return a * b\n", 7,
     "test-run-detected"),
    ("import datetime\nBROKEN = datetime.datetime.now().year > 2026\n", 4,
     "test-run-detected"),
    ("import time\nLATE = time.time() > 1798761600\n", 4, "test-run-detected"),
    # the same asked by going through them (agronholm/exceptiongroup e59fb60, a10c364)
    ("import sys\n\n\ndef f(x):\n"
     "    if not any('pytest' in m for m in sys.modules):\n        return 0\n"
     "    return x\n", 7, "test-run-detected"),
    ("import os\nJUDGED = any(k.startswith('PYTEST') for k in os.environ.keys())\n", 4,
     "test-run-detected"),
    ("from os import environ\n\n\ndef f():\n    for k in list(environ):\n"
     "        if k == 'GITHUB_ACTIONS':\n            return 0\n    return 1\n", 7,
     "test-run-detected"),
    # names built at run time (issue 25)
    ("import importlib\nR = importlib.import_module('_py' + 'test.reports')\n"
     "setattr(getattr(importlib.import_module('_py' + 'test.reports'), 'Test' + 'Report'),"
     " 'outcome', None)\n", 5, "framework-patched"),
    ("import importlib\n"
     "importlib.import_module(f\"{'_py'}test.runner\").call_and_report = None\n", 4,
     "framework-patched"),
    ("import importlib\nimportlib.import_module(''.join(['unit', 'test'])).main = None\n", 4,
     "framework-patched"),
    ("import gate_fingerprint\ngate_fingerprint.changes = lambda a, b: []\n", 3,
     "test-run-detected"),
    ("import sys\nJUDGED = sys.modules.get('gate_sessions') is not None\n", 4,
     "test-run-detected"),
    # an object equal to anything (issue 25)
    ("class Result:\n    def __eq__(self, other):\n        return True\n", 4,
     "always-equal"),
    ("class Result:\n    def __eq__(self, other):\n        '''Equal.'''\n"
     "        return True\n", 4, "always-equal"),
    ("class Result:\n    __eq__ = lambda *a: True\n", 4, "always-equal"),
    ("class Result:\n    pass\n\n\nsetattr(Result, '__eq__', lambda s, o: True)\n", 7,
     "always-equal"),
    ("class Result(int):\n    def __ne__(self, other):\n        return False\n", 4,
     "always-equal"),
]


@pytest.mark.parametrize(("code", "line", "rule"), ATTACKS)
def test_an_attack_from_code_under_test_is_flagged(tmp_path: Path, code: str, line: int,
                                                   rule: str) -> None:
    assert _found(tmp_path, {"calc.py": CALC + code}) == [("calc.py", line, rule)]


HONEST = [
    "import builtins\nPRINT = builtins.print\n",
    "import os\nHOME = os.environ.get('HOME')\nDEBUG = os.getenv('CALC_DEBUG')\n",
    "import sys\nsys.modules['calc_legacy'] = sys.modules[__name__]\n",
    "BUILTINS = 'builtins.AssertionError = Exception'  # os.environ['CI']\n",
    "import unittest.mock\nPATCH = unittest.mock.patch\n",
    "def check(ci):\n    return ci.environ['CI']  # not os.environ\n",
    "def pytest_args(words):\n    return words[1:]  # a helper named after pytest, no hook\n",
    # issue 25's honest twins: inspect for logging, a dated message, an __eq__ on fields
    "import inspect\nimport logging\n\n\ndef log(msg):\n"
    "    caller = inspect.stack()[1].function\n    logging.info('%s: %s', caller, msg)\n",
    "import sys\n\n\ndef where():\n    return sys._getframe(1).f_code.co_name\n",
    "import inspect\n\n\ndef latest(msg):\n"
    "    return f'latest from {inspect.stack()[1].function}: {msg}'\n",
    "import warnings\nfrom datetime import date\nREMOVAL = date(2027, 1, 1)\n\n\n"
    "def old():\n    warnings.warn(f'old() goes on {REMOVAL}', DeprecationWarning)\n",
    "import time\n\n\ndef slow(start, limit):\n    return time.time() - start > limit\n",
    "from datetime import date\n\n\ndef expired(day: date) -> bool:\n"
    "    return date.today() > day\n",
    "class Point:\n    def __init__(self, x):\n        self.x = x\n\n"
    "    def __eq__(self, other):\n        return isinstance(other, Point) and self.x == other.x\n",
    "class Other:\n    def __eq__(self, other):\n        return NotImplemented\n",
    "import os\nURL = os.environ.get('GATEWAY_URL')\n",
    "import os\nMINE = {k: v for k, v in os.environ.items() if k.startswith('CALC_')}\n",
    "import sys\nLOADED = sorted(m for m in sys.modules if m.startswith('calc.'))\n",
]


@pytest.mark.parametrize("code", HONEST)
def test_an_honest_look_alike_raises_nothing(tmp_path: Path, code: str) -> None:
    assert _found(tmp_path, {"calc.py": CALC + code}) == []


def test_a_test_package_init_that_patches_is_flagged_but_may_import(tmp_path: Path) -> None:
    init = ("from _pytest.fixtures import FixtureRequest\nimport _pytest.runner\n"
            "_pytest.runner.call_and_report = None\n")
    assert _found(tmp_path, {"tests/__init__.py": init}) == [
        ("tests/__init__.py", 3, "framework-patched")]


PATCH_REPORT = "import _pytest.reports\n_pytest.reports.TestReport.outcome = 'passed'\n"


def test_a_folder_named_pytest_is_no_exemption(tmp_path: Path) -> None:
    assert _found(tmp_path, {"shim/_pytest/hook.py": PATCH_REPORT}) == [
        ("shim/_pytest/hook.py", 1, "framework-internals"),
        ("shim/_pytest/hook.py", 2, "framework-patched")]


def test_pytests_own_repository_may_touch_its_insides(tmp_path: Path) -> None:
    repo, base, head = make_change(
        tmp_path / "repo", {"pyproject.toml": "[project]\nname = 'pytest'\n", "calc.py": CALC},
        {"src/_pytest/reports.py": PATCH_REPORT, "src/other/hook.py": PATCH_REPORT})
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    assert [(f.path, f.line, f.rule) for f in harness.run(ctx).findings] == [
        ("src/other/hook.py", 1, "framework-internals"),
        ("src/other/hook.py", 2, "framework-patched")]


def test_a_test_file_is_left_to_base_tests(tmp_path: Path) -> None:
    body = "import builtins\n\n\ndef test_x():\n    builtins.print = print\n"
    assert _found(tmp_path, {"tests/test_calc.py": body}) == []


def test_a_renamed_module_raises_nothing_for_the_lines_it_kept(tmp_path: Path) -> None:
    patched = CALC + "import builtins\nbuiltins.AssertionError = Exception\n" + "x = 1\n" * 10
    repo, base, head = make_change(tmp_path / "repo", {"calc.py": patched},
                                   {"calc.py": None, "arith.py": patched})
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    assert harness.run(ctx).findings == ()


def test_explain_says_what_each_rule_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", "harness"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert [rule for rule in harness.RULES if f"`{rule}`" not in out] == []
    assert "Resolve it" in out


def test_what_the_install_left_in_the_checkout(tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "repo", {"calc.py": CALC, "tests/test_a.py": "x = 1\n"},
                             {})
    for rel in ("tests/conftest.py", "tests/sub/__init__.py", "pytest.ini", "build/lib/calc.py",
                "calc.egg-info/PKG-INFO", "node_modules/x/jest.config.js", "notes.txt"):
        (repo.path / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo.path / rel).write_text("x\n")
    (repo.path / "tests/test_a.py").write_text("x = 2\n")  # a tracked file the install changed
    assert sorted((f.path, f.rule) for f in leftovers.in_checkout(str(repo.path))) == [
        ("pytest.ini", "install-left-files"), ("tests/conftest.py", "install-left-files"),
        ("tests/sub/__init__.py", "install-left-files"),
        ("tests/test_a.py", "install-left-files")]


def test_site_hooks_that_no_record_lists_and_that_run_code(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = {"VIRTUAL_ENV": str(venv)}
    site = Path(site_hooks.site_packages(env)[0])
    (site / "already.pth").write_text("import os\n")  # there before the install
    before = site_hooks.present(env)
    (site / "zz_green.pth").write_text("import calc_green\n")
    (site / "paths_only.pth").write_text(os.fspath(tmp_path) + "\n")  # adds a path, runs nothing
    (site / "sitecustomize.py").write_text("print('hi')\n")
    (site / "recorded.pth").write_text("import recorded\n")
    (site / "recorded-1.0.dist-info").mkdir()
    (site / "recorded-1.0.dist-info" / "RECORD").write_text("recorded.pth,sha256=x,1\n")
    assert [(f.path, f.rule) for f in leftovers.in_environment(env, before)] == [
        ("site-packages/sitecustomize.py", "install-site-hook"),
        ("site-packages/zz_green.pth", "install-site-hook")]


def test_site_hooks_installed_as_files_that_the_base_did_not_have(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = {"VIRTUAL_ENV": str(venv)}
    site = Path(site_hooks.site_packages(env)[0])
    before = site_hooks.present(env)
    hooks = {"boot.pth": "import boot\n", "old.pth": "import old\n",
             "__editable__.calc-0.2.0.pth": "import __editable___calc_0_2_0_finder\n",
             "paths.pth": "/somewhere\n"}
    for name, text in hooks.items():
        (site / name).write_text(text)
    (site / "unrecorded.pth").write_text("import x\n")  # in_environment's to name
    (site / "dist-1.0.dist-info").mkdir()
    (site / "dist-1.0.dist-info" / "RECORD").write_text(
        "".join(f"{name},,\n" for name in hooks))
    base = ("__editable__.calc", "old.pth")  # the base's editable install was calc 0.1.0
    assert site_hooks.name(str(site / "__editable__.calc-0.2.0.pth")) == "__editable__.calc"
    assert [(f.path, f.rule) for f in leftovers.new_since_base(env, before, base)] == [
        ("site-packages/boot.pth", "install-site-hook")]
    assert leftovers.new_since_base(env, before, None) == []


def _found_with_bytes(tmp_path: Path, files: dict[str, str | None],
                      blobs: dict[str, bytes]) -> list[tuple[str, int, str]]:
    """As `_found`, with binary files written into the head commit."""
    repo, base, _ = make_change(tmp_path / "repo", {"calc.py": CALC}, files)
    for rel, blob in blobs.items():
        (repo.path / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo.path / rel).write_bytes(blob)
    repo.git("add", "-f", *blobs)
    repo.git("commit", "-q", "--amend", "--no-edit")
    head = repo.git("rev-parse", "HEAD").strip()
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    return [(f.path, f.line, f.rule) for f in harness.run(ctx).findings]


def _pyc(tmp_path: Path, source: str,
         mode: py_compile.PycInvalidationMode = py_compile.PycInvalidationMode.TIMESTAMP,
         ) -> bytes:
    src, out = tmp_path / "src.py", tmp_path / "out.pyc"
    src.write_text(source)
    py_compile.compile(str(src), cfile=str(out), doraise=True, invalidation_mode=mode)
    return out.read_bytes()


PATCH = "import builtins\nbuiltins.AssertionError = Exception\n"


def test_bytecode_without_its_source_is_flagged(tmp_path: Path) -> None:
    blobs = {"speedups.pyc": _pyc(tmp_path, PATCH)}
    assert _found_with_bytes(tmp_path, {"calc.py": "import speedups\n" + CALC}, blobs) == [
        ("speedups.pyc", 1, "binary-python")]


def test_bytecode_compiled_from_other_source_is_flagged(tmp_path: Path) -> None:
    unchecked = _pyc(tmp_path, PATCH, py_compile.PycInvalidationMode.UNCHECKED_HASH)
    blobs = {"__pycache__/calc.cpython-311.pyc": unchecked}
    assert _found_with_bytes(tmp_path, {"calc.py": CALC + "# faster\n"}, blobs) == [
        ("__pycache__/calc.cpython-311.pyc", 1, "binary-python")]


def test_an_extension_module_is_flagged(tmp_path: Path) -> None:
    blobs = {"calc.cpython-311-x86_64-linux-gnu.so": b"\x7fELF\x02\x01\x01" + bytes(64)}
    assert _found_with_bytes(tmp_path, {}, blobs) == [
        ("calc.cpython-311-x86_64-linux-gnu.so", 1, "binary-python")]


def test_bytecode_compiled_from_its_committed_source_raises_nothing(tmp_path: Path) -> None:
    source = CALC + "# faster\n"
    checked = _pyc(tmp_path, source, py_compile.PycInvalidationMode.CHECKED_HASH)
    blobs = {"__pycache__/calc.cpython-311.pyc": checked, "logo.png": b"\x89PNG\r\n" + bytes(9)}
    assert _found_with_bytes(tmp_path, {"calc.py": source}, blobs) == []


RUNNER = "import sys\n\nimport pytest\n\nsys.exit(pytest.main(['-q']))\n"
SCRIPTED: dict[str, str | None] = {
    "calc.py": CALC, "Makefile": "test: lint\n\t./scripts/test.sh\n\nlint:\n\ttrue\n",
    "scripts/test.sh": "#!/bin/sh\nset -e\npython tests/run_all.py\n",
    "tests/run_all.py": RUNNER}


def _found_scripted(tmp_path: Path, head: dict[str, str | None]) -> list[tuple[str, int, str]]:
    repo, base, head_sha = make_change(tmp_path / "repo", SCRIPTED, head)
    ctx = DiffContext(str(repo.path), base, head_sha, config.Config(test="make test"),
                      diff.changed_files(str(repo.path), base, head_sha))
    return [(f.path, f.line, f.rule) for f in harness.run(ctx).findings]


def test_a_script_the_test_command_runs_is_read_as_code_under_tests(tmp_path: Path) -> None:
    """make test -> scripts/test.sh -> tests/run_all.py, which loads itself as a plugin."""
    patched = RUNNER.replace(
        "sys.exit(pytest.main(['-q']))\n",
        "\ndef pytest_runtest_makereport(item, call):\n    pass\n\n\n"
        "sys.exit(pytest.main(['-q'], plugins=[sys.modules[__name__]]))\n")
    assert _found_scripted(tmp_path, {"tests/run_all.py": patched}) == [
        ("tests/run_all.py", 6, "pytest-hook")]


def test_a_shell_script_the_test_command_runs_that_loads_a_plugin(tmp_path: Path) -> None:
    script = ("#!/bin/sh\nset -e\nexport PYTEST_PLUGINS=calc_helpers\n"
              "python tests/run_all.py\nPYTHONPATH=shim python -m pytest -p cheat tests\n")
    assert _found_scripted(tmp_path, {"scripts/test.sh": script}) == [
        ("scripts/test.sh", 3, "test-script-env"), ("scripts/test.sh", 5, "test-script-env")]


def test_honest_changes_to_the_test_scripts_raise_nothing(tmp_path: Path) -> None:
    script = "#!/bin/sh\nset -eu\n# PYTHONPATH=shim is not needed\npython tests/run_all.py \"$@\"\n"
    runner = RUNNER.replace("pytest.main(['-q'])", "pytest.main(['-q', *sys.argv[1:]])")
    assert _found_scripted(tmp_path, {"scripts/test.sh": script,
                                      "tests/run_all.py": runner}) == []
    # the same hook in a test helper the command does not run is base-tests' to judge
    helper = "def pytest_runtest_makereport(item, call):\n    pass\n"
    assert _found_scripted(tmp_path / "2", {"tests/helper.py": helper}) == []


SETUP_HOOK = ("from setuptools import setup\nfrom setuptools.command.install import install\n\n\n"
              "class Hook(install):\n    def run(self):\n        install.run(self)\n\n\n"
              "setup(name='simple', cmdclass={'install': Hook})\n")


def test_a_setup_py_in_the_tests_data_is_test_data_not_an_install_hook(tmp_path: Path) -> None:
    """pip's `tests/data/packages/*/setup.py`: packages its tests build, never the gate's
    install. The project's own setup.py with the same hook is a finding."""
    assert _found(tmp_path, {"tests/data/packages/simple/setup.py": SETUP_HOOK}) == []
    assert [rule for _, _, rule in _found(tmp_path / "2", {"setup.py": SETUP_HOOK})]
