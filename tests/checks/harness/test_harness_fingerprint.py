"""harness, the framework's fingerprint: the gate's plugin fingerprints pytest's reporting
machinery when it loads and when the session ends; a part replaced while the tests ran, or
code of the checkout in the framework's place, is a finding pinned at the replacement, found
however the patch is spelt (issue 25). Each cheat makes a broken `add` pass; its honest twin
raises nothing."""
from __future__ import annotations

import json
import py_compile
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.runners import run_in

from gate import cli
from gate.checks.harness import fingerprint
from gate.outcomes.record import Counts, Tampering

PYTEST = f"{sys.executable} -m pytest -q"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
FORGE = "property(lambda self: 'passed', lambda self, value: None)"
BY_NAME = ("import importlib\n\n"
           "reports = importlib.import_module('_py' + 'test.rep' + 'orts')\n"
           f"setattr(getattr(reports, 'Test' + 'Report'), 'out' + 'come', {FORGE})\n")


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"tests/test_add.py": TEST_ADD, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _tampered(root: Path, command: str = f"{PYTEST} tests", works: bool = True,
              ) -> tuple[Tampering, ...]:
    run = run_in(root, command)
    assert run.counts is not None, run.completed.output
    assert not works or run.counts.failed == 0  # the cheat works: the broken add passes
    return run.counts.tampered


def test_a_patch_in_a_folder_named_like_pytest_is_found(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {
        "calc.py": "import shim._pytest.hook  # noqa: F401\n\n" + BROKEN,
        "shim/__init__.py": "", "shim/_pytest/__init__.py": "",
        "shim/_pytest/hook.py": f"import _pytest.reports\n\n_pytest.reports.TestReport.outcome"
                                f" = {FORGE}\n"})
    assert [(t.name, t.file, t.line) for t in _tampered(root)] == [
        ("_pytest.reports.TestReport.outcome", str(root / "shim/_pytest/hook.py"), 3)]


def test_a_patch_whose_names_are_built_at_run_time_is_found(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": BY_NAME + "\n\n" + BROKEN})
    assert [(t.name, t.what, t.file, t.line) for t in _tampered(root)] == [
        ("_pytest.reports.TestReport.outcome", "foreign", str(root / "calc.py"), 4)]


def test_a_patch_committed_as_bytecode_only_is_found_at_its_pyc(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": "import speedups  # noqa: F401\n\n" + BROKEN,
                                     "speedups.py": BY_NAME})
    py_compile.compile(str(root / "speedups.py"), cfile=str(root / "speedups.pyc"),
                       dfile="/somewhere/else.py")
    (root / "speedups.py").unlink()
    assert [(t.name, t.file) for t in _tampered(root)] == [
        ("_pytest.reports.TestReport.outcome", str(root / "speedups.pyc"))]


def test_a_script_that_patches_before_pytest_main_is_found(tmp_path: Path) -> None:
    script = ("import sys\n\nimport _pytest.reports\nimport pytest\n\n"
              f"_pytest.reports.TestReport.outcome = {FORGE}\n"
              "sys.exit(pytest.main(['-q', 'tests']))\n")
    root = _project(tmp_path / "p", {"calc.py": BROKEN, "run_tests.py": script,
                                     "Makefile": f"test:\n\t{sys.executable} run_tests.py\n"})
    assert [(t.name, t.what, t.file, t.line) for t in _tampered(root, "make test")] == [
        ("_pytest.reports.TestReport.outcome", "foreign", str(root / "run_tests.py"), 6)]


@pytest.mark.slow  # two pytest sessions with xdist workers
def test_an_xdist_worker_reports_what_changed_under_it(tmp_path: Path) -> None:
    """pytest-xdist is one of the test extras: this test needs it, and never skips."""
    root = _project(tmp_path / "p", {"calc.py": BY_NAME + "\n\n" + BROKEN})
    found = _tampered(root, f"{PYTEST} -n 2 -p xdist tests", works=False)  # it breaks xdist
    assert [(t.name, t.file) for t in found] == [
        ("_pytest.reports.TestReport.outcome", str(root / "calc.py"))]


def test_honest_suites_change_nothing(tmp_path: Path) -> None:
    """unittest cases, xfail, skips, warnings, capture and a test that monkeypatches one of
    pytest's own functions (undone when the test ends), run by a script around pytest.main."""
    tests = (
        "import unittest\nimport warnings\n\nimport _pytest.runner\nimport pytest\n"
        "from calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n\n"
        "    @unittest.skip('later')\n    def test_later(self):\n        pass\n\n\n"
        "@pytest.mark.xfail\ndef test_known():\n    assert [1, 2] == [1, 3]\n\n\n"
        "def test_quiet(monkeypatch, capsys):\n"
        "    monkeypatch.setattr(_pytest.runner, 'show_test_item', lambda item: None)\n"
        "    warnings.warn('x')\n    print('out')\n")
    root = _project(tmp_path / "p", {
        "calc.py": "def add(a, b):\n    return a + b\n", "tests/test_add.py": tests,
        "run_tests.py": "import sys\n\nimport pytest\n\nsys.exit(pytest.main(['-q', 'tests']))\n"})
    assert _tampered(root) == ()
    assert _tampered(root, f"{sys.executable} run_tests.py") == ()


def test_only_what_the_base_did_not_change_is_a_finding(tmp_path: Path) -> None:
    both = Tampering("_pytest.terminal.TerminalReporter.write", "replaced", "/site/plug.py", 3)
    new = Tampering("_pytest.reports.TestReport.outcome", "foreign", str(tmp_path / "calc.py"), 7)
    base = Counts("pytest", 1, 0, 0, tampered=(both,))
    head = Counts("pytest", 1, 0, 0, tampered=(both, new))
    found = fingerprint.compare(base, [head, None], str(tmp_path))
    assert [(f.path, f.line, f.rule) for f in found] == [
        ("calc.py", 7, "framework-changed-in-run")]
    assert "TestReport.outcome" in found[0].message


# the whole gate, once per side: `make test` whose script patches before pytest.main()
MAKE_BASE = {
    ".gate.toml": 'install = "true"\ntest = "make test"\nruns = 1\n',
    "Makefile": f"test:\n\t{sys.executable} run_tests.py\n",
    "run_tests.py": "import sys\n\nimport pytest\n\nsys.exit(pytest.main(['-q', 'tests']))\n",
    "calc.py": "def add(a, b):\n    return a + b\n", "tests/test_add.py": TEST_ADD}


def _judge(tmp_path: Path, head: dict[str, str | None]) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(tmp_path / "r", MAKE_BASE, head)
    with pytest.MonkeyPatch.context() as mp:
        out: list[str] = []
        mp.setattr(sys, "stdout", _Sink(out))
        code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                         "--format", "json"])
    return code, json.loads("".join(out))


class _Sink:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, text: str) -> int:
        self.out.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.slow
def test_make_test_whose_script_patches_before_pytest_main_needs_review(
        tmp_path: Path) -> None:
    script = MAKE_BASE["run_tests.py"].replace("import pytest\n", "import pytest\n\n" + BY_NAME)
    code, report = _judge(tmp_path, {"calc.py": BROKEN, "run_tests.py": script})
    harness = next(c for c in report["checks"] if c["id"] == "harness")
    assert [(f["path"], f["line"], f["rule"]) for f in harness["findings"]] == [
        ("run_tests.py", 8, "framework-changed-in-run")]
    assert (report["verdict"], code) == ("needs-review", 3)


@pytest.mark.slow
def test_make_test_with_an_honest_change_passes(tmp_path: Path) -> None:
    code, report = _judge(tmp_path, {"calc.py": "def add(a, b):\n    return b + a\n"})
    assert [c["id"] for c in report["checks"] if c["findings"]] == []
    assert (report["verdict"], code) == ("pass", 0)


# Patched at add()'s first call, inside the first test, and put back when the session's
# node is torn down, in the last test's teardown: the fingerprints at load and at the end
# see the framework as it was. Found by name at run time, no name of pytest's spelt.
WHILE_RUNNING = f"""\
import gc
import importlib

_reports = importlib.import_module("_py" + "test.rep" + "orts")
_class = getattr(_reports, "Test" + "Report")
_done = []


def _restore():
    delattr(_class, "out" + "come")


def add(a, b):
    if not _done:
        _done.append(1)
        setattr(_class, "out" + "come", {FORGE})
        session = next(o for o in gc.get_objects() if type(o).__name__ == "Session")
        session.addfinalizer(_restore)
    return a - b
"""


def test_a_part_patched_while_the_tests_run_and_put_back_is_found(tmp_path: Path) -> None:
    """Issue 50: the fingerprint was two snapshots, at load and at the end, and this patch
    is in neither; now the deciding parts are compared after each test's call."""
    root = _project(tmp_path / "p", {"calc.py": WHILE_RUNNING,
                                     "tests/test_more.py": "def test_other():\n    pass\n"})
    run = run_in(root, f"{PYTEST} -p no:randomly tests")
    assert run.counts is not None, run.completed.output
    assert run.passed  # the attack works: the broken add passes
    assert [(t.name, t.what, t.file) for t in run.counts.tampered] == [
        ("_pytest.reports.TestReport.outcome", "foreign", str(root / "calc.py"))]


# The base's conftest imports the package; the package, before the recorder's first
# message, wraps it to drop the fingerprint's reports, then forges the outcome.
REACHES_THE_RECORDER = f"""\
import importlib
import sys

_sessions = sys.modules["gate_" + "sessions"]
_evidence = sys.modules["gate_" + "evidence"]
_send, _module_send = _sessions._Own.send, _evidence.send


def _quiet(self, kind, **fields):
    if kind != "fingerprint":
        _send(self, kind, **fields)


def _quiet_module(kind, **fields):
    if kind != "fingerprint":
        _module_send(kind, **fields)


_sessions._Own.send = _quiet
_evidence.send = _quiet_module
_reports = importlib.import_module("_py" + "test.rep" + "orts")
setattr(_reports.TestReport, "out" + "come", {FORGE})


def add(a, b):
    return a - b
"""


def test_a_recorder_wrapped_before_its_first_message_still_sends_and_is_seen(
        tmp_path: Path) -> None:
    """Issue 50: the session's sending is bound when pytest imports the gate's plugin, before
    any conftest: wrapping `_Own.send` or `gate_evidence.send` later changes nothing it sends
    (before, the wrapper dropped the fingerprint's reports and the digest, computed by the
    same wrapped code, agreed), and the wrapping is itself a change of the framework's."""
    root = _project(tmp_path / "p", {"calc.py": REACHES_THE_RECORDER,
                                     "tests/conftest.py": "import calc  # noqa: F401\n"})
    run = run_in(root, f"{PYTEST} tests")
    assert run.counts is not None, run.completed.output
    assert run.passed  # the attack works: the broken add passes
    assert run.counts.evidence == ()  # the stream is whole: nothing dropped, digest agrees
    assert sorted((t.name, t.what) for t in run.counts.tampered) == [
        ("_pytest.reports.TestReport.outcome", "foreign"),
        ("gate_evidence.send", "replaced"), ("gate_sessions._Own.send", "replaced")]
