"""harness, the deciding hooks from pytest's own registry (issue 50, gate_hooks): every
implementation of a hook that decides an outcome, in the controller and in every xdist
worker, is where its code says it is, and is a test's, an installed plugin's or the gate's.
Each attack turns the broken `add`'s failure into a pass; the twin shows what the plugin
list alone said of it: nothing."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers.runners import run_in

from gate.checks.harness import fingerprint
from gate.outcomes.record import Counts

PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
# Package code finds pytest's Config among the live objects (no name of pytest's spelt) and
# registers a plugin compiled under the name of a conftest.py at the root, which does not
# exist: the plugin list took it for the project's own conftest, and left it out.
POSING = '''\
import gc
import os

_SOURCE = """
import pytest


class Passing:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        report.outcome = "passed"
        report.longrepr = None
"""


def _register():
    configs = [o for o in gc.get_objects() if type(o).__name__ == "Config"
               and hasattr(o, "pluginmanager")]
    space = {}
    exec(compile(_SOURCE, os.path.join(os.getcwd(), "conftest.py"), "exec"), space)
    for config in configs:
        config.pluginmanager.register(space["Passing"]())


_register()


def add(a, b):
    return a - b
'''


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"tests/test_add.py": TEST_ADD, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_plugin_posing_as_a_conftest_that_is_not_there_is_tampering(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": POSING})
    run = run_in(root, f"{PYTEST} tests")
    assert run.counts is not None, run.completed.output
    # the twin: the attack works, and the plugin list says nothing of it
    assert run.passed, run.completed.output[-2000:]
    assert not [p for p in run.counts.plugins or () if "Passing" in p.name]
    # the registry does
    claimed = [t for t in run.counts.tampered if t.what == "claimed"]
    assert [(t.name, t.file) for t in claimed] == [
        ("hook pytest_runtest_makereport: ?.Passing.pytest_runtest_makereport",
         str(root / "conftest.py"))], run.counts.tampered
    found = fingerprint.compare(Counts("pytest", 1, 0, 0), [run.counts], str(root))
    assert [(f.rule, f.severity) for f in found] == [("framework-changed-in-run", "error")]
    assert "claims a file or a line that is not its own" in found[0].message


def test_a_hook_of_code_under_test_is_named_at_its_line(tmp_path: Path) -> None:
    """The same plugin in the package's own file, under its own name: code under test that
    decides its tests' outcomes."""
    plugin = POSING.replace('exec(compile(_SOURCE, os.path.join(os.getcwd(), "conftest.py"), '
                            '"exec"), space)', "space['Passing'] = Passing")
    plugin = plugin.replace("def _register():", "import pytest\n\n\nclass Passing:\n"
                            "    @pytest.hookimpl(hookwrapper=True)\n"
                            "    def pytest_runtest_makereport(self, item, call):\n"
                            "        outcome = yield\n        report = outcome.get_result()\n"
                            "        report.outcome = 'passed'\n\n\ndef _register():")
    root = _project(tmp_path / "p", {"calc.py": plugin})
    run = run_in(root, f"{PYTEST} tests")
    assert run.counts is not None and run.passed, run.completed.output[-2000:]
    at = [n for n, text in enumerate(plugin.splitlines(), 1) if "@pytest.hookimpl" in text][-1]
    assert [(t.what, t.file, t.line) for t in run.counts.tampered] == [
        ("package-hook", str(root / "calc.py"), at)]


@pytest.mark.slow  # pytest-xdist's workers
def test_a_plugin_loaded_only_in_the_workers_is_listed_and_judged(tmp_path: Path) -> None:
    """A conftest loads, in the xdist workers only, a plugin module of the package: the
    controller never sees it; the workers send their plugins and their deciding hooks."""
    sneaky = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
              "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
              "    report = outcome.get_result()\n    report.outcome = 'passed'\n"
              "    report.longrepr = None\n")
    conftest = ("def pytest_configure(config):\n"
                "    if hasattr(config, 'workerinput'):\n"
                "        config.pluginmanager.import_plugin('calc_speedups')\n")
    root = _project(tmp_path / "p", {"calc.py": BROKEN, "calc_speedups.py": sneaky,
                                     "tests/conftest.py": conftest})
    run = run_in(root, f"env PYTHONPATH={root}:$PYTHONPATH {PYTEST} -p xdist -n 2 tests")
    assert run.counts is not None and run.passed, run.completed.output[-2000:]
    assert "calc_speedups" in {p.name for p in run.counts.plugins or ()}, (
        run.counts.plugins, run.counts.evidence, run.completed.output[-3000:])
    assert [(t.what, t.file) for t in run.counts.tampered] == [
        ("package-hook", str(root / "calc_speedups.py"))]


def test_honest_hooks_in_conftests_and_installed_plugins_raise_nothing(tmp_path: Path) -> None:
    conftest = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
                "def pytest_runtest_makereport(item, call):\n    outcome = yield\n\n\n"
                "def pytest_collection_modifyitems(items):\n    items.sort(key=str)\n\n\n"
                "def pytest_report_header(config):\n    return 'calc'\n")
    root = _project(tmp_path / "p", {"calc.py": "def add(a, b):\n    return a + b\n",
                                     "tests/conftest.py": conftest,
                                     "tests/helpers/plug.py": "def pytest_runtest_setup(item):"
                                     "\n    pass\n",
                                     "tests/test_more.py": "pytest_plugins = []\n\n\n"
                                     "def test_x():\n    assert (lambda: 1)() == 1\n"})
    run = run_in(root, f"env PYTHONPATH={root}/tests:$PYTHONPATH {PYTEST} -p helpers.plug tests")
    assert run.counts is not None and run.passed, run.completed.output[-2000:]
    assert run.counts.tampered == ()
