"""harness, plugins actually loaded: the gate's session plugin lists what each pytest session
loaded, and a plugin only the head's runs loaded is a finding pinned where the head names it."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from helpers.runners import run_in

from gate.checks.harness import loaded_plugins
from gate.outcomes import evidence
from gate.outcomes.record import Counts, Plugin

PYTEST = f"{sys.executable} -m pytest -q"


def counts(plugins: tuple[Plugin, ...] | None) -> Counts:
    return Counts("pytest", 1, 0, 0, plugins=plugins)


def test_a_session_lists_the_plugins_it_loaded_but_the_gates_and_the_projects_conftests(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    (root / "tests").mkdir(parents=True)
    (root / "helperplug.py").write_text("def pytest_report_header():\n    return 'hi'\n")
    (root / "tests" / "conftest.py").write_text("pytest_plugins = ['helperplug']\n")
    (root / "tests" / "test_a.py").write_text("def test_a():\n    assert True\n")
    run = run_in(root, f"env PYTHONPATH={root}:$PYTHONPATH {PYTEST} tests")
    assert run.counts is not None and run.counts.plugins is not None, run.completed.output
    listed = {p.name: p for p in run.counts.plugins}
    assert "helperplug" in listed
    assert listed["helperplug"].file == str(root / "helperplug.py")
    assert not [n for n in listed if n.startswith("gate_") or "conftest" in n]
    assert "_pytest.terminal" in listed  # pytest's own too: a name says nothing


def test_each_session_of_a_command_adds_to_the_list(tmp_path: Path) -> None:
    root = tmp_path / "project"
    for folder in ("unit", "integration"):
        (root / folder).mkdir(parents=True)
        (root / folder / f"test_{folder}.py").write_text("def test_x():\n    assert True\n")
    (root / "integration" / "conftest.py").write_text("pytest_plugins = ['onlyhere']\n")
    (root / "onlyhere.py").write_text("")
    run = run_in(root, f"env PYTHONPATH={root}:$PYTHONPATH {PYTEST} unit && "
                       f"env PYTHONPATH={root}:$PYTHONPATH {PYTEST} integration")
    assert run.counts is not None and run.counts.plugins is not None
    assert "onlyhere" in {p.name for p in run.counts.plugins}


def test_a_list_that_does_not_read_is_said_not_taken() -> None:
    lines = [json.dumps({"k": "open", "s": 0}).encode(),
             json.dumps({"k": "plugins", "s": 0, "list": [{"file": "x"}]}).encode()]
    found = evidence.read(lines, "/nowhere")
    assert found.sessions[0].plugins is None
    assert found.problems == ["unreadable: session 0's plugin list"]


def test_a_plugin_whose_class_claims_to_be_the_projects_conftest_is_listed(
        tmp_path: Path) -> None:
    """A plugin a distribution brings in (here on the path, as an installed one is) whose
    class says it lives in the project's conftest.py: its code's own file is what counts."""
    root = tmp_path / "project"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "conftest.py").write_text("")
    (root / "tests" / "test_a.py").write_text("def test_a():\n    assert True\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "greenplug.py").write_text(
        "class Green:\n    __module__ = 'conftest'\n\n"
        "    def pytest_report_header(self):\n        return 'green'\n\n\n"
        "def pytest_configure(config):\n    config.pluginmanager.register(Green())\n")
    run = run_in(root, f"env PYTHONPATH={site}:$PYTHONPATH {PYTEST} -p greenplug tests")
    assert run.counts is not None and run.counts.plugins is not None, run.completed.output
    listed = {p.name: p for p in run.counts.plugins}
    assert listed["conftest.Green"].file == str(site / "greenplug.py")


def test_a_plugin_only_the_head_loaded_is_pinned_where_the_head_names_it(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text(".\n./vendor/Pytest_Green-0.1.whl\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'calc'\n")
    base = counts((Plugin("pytest_cov.plugin"),))
    head = counts((Plugin("pytest_cov.plugin"),
                   Plugin("pytest_green", "/elsewhere/pytest_green.py", "pytest-green")))
    found = loaded_plugins.compare(base, [head, head], str(tmp_path),
                                   ["pyproject.toml", "requirements.txt"])
    assert [(f.path, f.line, f.rule) for f in found] == [
        ("requirements.txt", 2, "plugin-loaded-only-at-head")]
    assert "pytest-green" in found[0].message


def test_a_plugin_in_the_checkout_is_pinned_at_its_file(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "green.py").write_text("")
    head = counts((Plugin("green", str(tmp_path / "src" / "green.py")),))
    found = loaded_plugins.compare(counts(()), [head], str(tmp_path), [])
    assert [(f.path, f.line) for f in found] == [("src/green.py", 1)]


def test_a_plugin_nothing_names_is_pinned_at_the_packaging_file(tmp_path: Path) -> None:
    head = counts((Plugin("sneaky", "/site/sneaky.py"),))
    found = loaded_plugins.compare(counts(()), [head], str(tmp_path), ["setup.cfg"])
    assert [(f.path, f.line, f.rule) for f in found] == [
        ("pyproject.toml", 1, "plugin-loaded-only-at-head")]


def test_the_same_plugins_or_no_list_at_base_raise_nothing(tmp_path: Path) -> None:
    same = counts((Plugin("pytest_cov.plugin"),))
    assert loaded_plugins.compare(same, [same], str(tmp_path), []) == []
    assert loaded_plugins.compare(counts(None), [counts((Plugin("x"),))], str(tmp_path),
                                  []) == []
    assert loaded_plugins.compare(None, [same], str(tmp_path), []) == []
    other = Counts("unittest", 1, 0, 0)
    assert loaded_plugins.compare(same, [other], str(tmp_path), []) == []


def test_a_head_whose_sessions_listed_nothing_where_the_base_did_is_a_finding(
    tmp_path: Path,
) -> None:
    found = loaded_plugins.compare(counts(()), [counts(None)], str(tmp_path), [])
    assert [(f.path, f.line, f.rule) for f in found] == [
        ("pyproject.toml", 1, "plugin-list-missing-at-head")]


def test_a_session_a_test_starts_in_process_does_not_add_its_plugins(tmp_path: Path) -> None:
    """A plugin project's tests run pytest in-process (pytest.main) with plugins of their own:
    those are the inner session's, not what the suite's session loaded; nor are its tests the
    suite's (it writes no report)."""
    root = tmp_path / "project"
    (root / "inner").mkdir(parents=True)
    (root / "innerplug.py").write_text("")
    (root / "inner" / "test_inner.py").write_text("def test_i():\n    assert True\n")
    (root / "test_outer.py").write_text(
        "import pytest\n\n\ndef test_runs_pytest_inside():\n"
        "    assert pytest.main(['-q', '-p', 'innerplug', 'inner']) == 0\n")
    run = run_in(root, f"env PYTHONPATH={root}:$PYTHONPATH {PYTEST} test_outer.py")
    assert run.passed and run.counts is not None and run.counts.plugins is not None, (
        run.completed.output[-2000:])
    assert "innerplug" not in {p.name for p in run.counts.plugins}
    assert [c.name for c in run.counts.cases] == ["test_outer.py::test_runs_pytest_inside"]


def test_a_class_registered_as_a_plugin_is_named_by_itself_and_pytests_own_are_marked(
        tmp_path: Path) -> None:
    """pallets-eco/blinker's move to uv: 'builtins.type' (a class registered as a plugin,
    named by its type) and pytest's own builtins of another version were reported."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "test_a.py").write_text("def test_a():\n    assert True\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "classplug.py").write_text(
        "class Hooks:\n    @staticmethod\n    def pytest_report_header():\n        return 'h'\n\n\n"
        "def pytest_configure(config):\n    config.pluginmanager.register(Hooks)\n")
    run = run_in(root, f"env PYTHONPATH={site}:$PYTHONPATH {PYTEST} -p classplug")
    assert run.counts is not None and run.counts.plugins is not None, run.completed.output
    listed = {p.name: p for p in run.counts.plugins}
    assert "builtins.type" not in listed
    assert listed["classplug.Hooks"].file == str(site / "classplug.py")
    assert listed["_pytest.terminal"].dist == "pytest"
    assert listed["classplug"].dist is None


def test_pytests_own_plugins_of_another_version_are_not_news(tmp_path: Path) -> None:
    base = counts((Plugin("_pytest.terminal", "/b/_pytest/terminal.py", "pytest"),))
    head = counts((Plugin("_pytest.terminal", "/h/_pytest/terminal.py", "pytest"),
                   Plugin("_pytest.python_path", "/h/_pytest/python_path.py", "pytest"),
                   Plugin("_pytest.sneaky", "/site/_pytest_sneaky.py")))
    found = loaded_plugins.compare(base, [head], str(tmp_path), [])
    assert [f.message.split("`")[1] for f in found] == ["_pytest.sneaky"]
