"""Per-test outcomes read from pytest's JUnit report."""
from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers.runners import run_in

from gate.execution import venv
from gate.execution.environment import clean_env
from gate.execution.run_workspace import Workspace
from gate.outcomes import junit
from gate.outcomes.junit import CaseResult
from gate.outcomes.runners import pytest as pytest_runner
from gate.outcomes.testrun import run_tests

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="4">
<testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py" line="3" time="0.1"/>
<testcase classname="tests.test_a.TestK" name="test_bad" file="tests/test_a.py" line="9">
  <failure message="assert 1 == 2">trace</failure></testcase>
<testcase classname="tests.test_a" name="test_err" file="tests/test_a.py" line="12">
  <error message="fixture broke"/></testcase>
<testcase classname="tests.test_a" name="test_skip" file="tests/test_a.py" line="15">
  <skipped message="later"/></testcase>
</testsuite></testsuites>
"""


def test_outcomes_with_names_files_and_one_based_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.xml"
    path.write_text(REPORT)
    assert junit.parse(str(path)) == [
        CaseResult("tests/test_a.py::test_ok", "tests/test_a.py", 4, "passed", seconds=0.1),
        CaseResult("tests/test_a.py::TestK::test_bad", "tests/test_a.py", 10, "failed",
                    "assert 1 == 2"),
        CaseResult("tests/test_a.py::test_err", "tests/test_a.py", 13, "failed",
                    "fixture broke"),
        CaseResult("tests/test_a.py::test_skip", "tests/test_a.py", 16, "skipped", "later"),
    ]


def test_a_missing_or_broken_report_is_none(tmp_path: Path) -> None:
    assert junit.parse(str(tmp_path / "absent.xml")) is None
    (tmp_path / "bad.xml").write_text("<testsuite")
    assert junit.parse(str(tmp_path / "bad.xml")) is None


def test_a_command_running_pytest_twice_keeps_both_sessions_outcomes(tmp_path: Path) -> None:
    """Each session writes a report of its own (the gate's gate_sessions plugin): with one
    --junitxml file the second session's report replaced the first's."""
    root = tmp_path / "project"
    for folder, names in (("unit", ("a", "b")), ("integration", ("c",))):
        (root / folder).mkdir(parents=True)
        (root / folder / f"test_{folder}.py").write_text(
            "".join(f"def test_{n}():\n    assert True\n" for n in names))
    python = f"{sys.executable} -m pytest -q"
    run = run_in(root, f"{python} unit && {python} integration")
    assert run.counts is not None and run.passed, run.completed.output[-2000:]
    assert sorted(c.name for c in run.counts.cases) == [
        "integration/test_integration.py::test_c", "unit/test_unit.py::test_a",
        "unit/test_unit.py::test_b"]


def _two_sessions(root: Path, python: str) -> str:
    for folder, names in (("unit", ("a", "b")), ("integration", ("c",))):
        (root / folder).mkdir(parents=True)
        (root / folder / f"test_{folder}.py").write_text(
            "".join(f"def test_{n}():\n    assert True\n" for n in names))
    return f"{python} -m pytest -q unit && {python} -m pytest -q integration"


def test_a_command_that_replaces_pythonpath_still_runs_when_the_plugin_cannot_load(
    tmp_path: Path,
) -> None:
    """An interpreter outside the fresh environment with PYTHONPATH replaced cannot import the
    gate's session plugin: the run is made again without it and reads as pytest alone writes
    it (the last session's report), instead of failing on the gate's own plugin."""
    site = sysconfig.get_paths()["purelib"]
    command = _two_sessions(tmp_path / "project", f"env PYTHONPATH={site} {sys.executable}")
    run = run_in(tmp_path / "project", command)
    assert "gate_sessions" not in run.completed.output, run.completed.output[-2000:]
    assert run.passed and run.counts is not None
    assert [c.name for c in run.counts.cases] == ["integration/test_integration.py::test_c"]


@pytest.mark.slow
def test_the_fresh_environment_finds_the_plugin_whatever_pythonpath_says(
    tmp_path: Path,
) -> None:
    """`PYTHONPATH=src pytest` in the run's fresh environment: its .pth file puts the gate's
    plugins on the path, so both sessions keep their outcomes."""
    fresh = venv.create(str(tmp_path / "env"))
    venv.add_path(fresh, pytest_runner.PLUGIN_DIR, "_gate_pytest_plugins")
    site = sysconfig.get_paths()["purelib"]  # this pytest: the fresh environment has none
    command = _two_sessions(tmp_path / "project",
                            f"env PYTHONPATH={site} {venv.python_of(fresh)}")
    run = run_in(tmp_path / "project", command)
    assert run.passed and run.counts is not None, run.completed.output[-2000:]
    assert sorted(c.name for c in run.counts.cases) == [
        "integration/test_integration.py::test_c", "unit/test_unit.py::test_a",
        "unit/test_unit.py::test_b"]


def test_a_directory_left_where_a_session_report_goes_is_stepped_over(tmp_path: Path) -> None:
    """A judged test can leave anything in the report's directory: a directory named like
    the first session's report neither stops the gate nor hides the session."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "test_a.py").write_text("def test_a():\n    assert True\n")
    scratch = tmp_path / "project-scratch"
    (scratch / "report.xml.0").mkdir(parents=True)
    run = run_in(root, f"{sys.executable} -m pytest -q")
    assert run.passed and run.counts is not None
    assert [c.name for c in run.counts.cases] == ["test_a.py::test_a"]


def test_a_gate_plugin_that_cannot_load_is_named_with_what_to_do(tmp_path: Path) -> None:
    """The shard plugin cannot be left out as the session plugin is: a run that could not
    import it says why and what to change, not only its exit status."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "test_a.py").write_text("def test_a():\n    assert True\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {**clean_env(), "PYTEST_PLUGINS": "gate_shard_plugin", "GATE_SHARD": "1/2"}
    ws = Workspace(str(root), str(scratch), env, 60)
    site = sysconfig.get_paths()["purelib"]
    run = run_tests(ws, f"env PYTHONPATH={site} {sys.executable} -m pytest -q",
                    str(scratch / "report.xml"))
    assert not run.passed
    assert "PYTHONPATH=src:$PYTHONPATH" in run.problem(), run.completed.output[-1000:]


def test_a_module_pytest_could_not_collect_is_named_by_its_file_and_its_error(
        tmp_path: Path) -> None:
    """A real pytest run over a module that imports what is not installed: the report's
    "collection failure" becomes the import error, so the suite's finding says why."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import no_such_module_dateutil\n\n\ndef test_a():\n    pass\n")
    report = tmp_path / "r.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={report}", "-o", "junit_family=xunit1"], cwd=tmp_path,
                   capture_output=True)
    [case] = junit.parse(str(report)) or []
    assert (case.name, case.file, case.outcome) == ("tests/test_x.py", "tests/test_x.py",
                                                    "failed")
    assert case.message == ("not collected: ModuleNotFoundError: No module named "
                            "'no_such_module_dateutil'")
    assert junit.not_collected(case)


def test_a_run_the_projects_ci_colours_is_read_without_the_colour(tmp_path: Path) -> None:
    """The project's CI sets FORCE_COLOR (hynek/stamina does): pytest then writes colour codes
    into the report's texts too, escaped as `#x1B`; the outcomes read as in a plain run."""
    root = tmp_path / "p"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_imp.py").write_text("import nonexistent_mod\n")
    (root / "tests" / "test_f.py").write_text("def test_f():\n    assert 1 == 2\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    ws = Workspace(str(root), str(scratch), {**clean_env(), "FORCE_COLOR": "1"}, 120)
    run = run_tests(ws, f"{sys.executable} -m pytest --continue-on-collection-errors tests",
                    str(scratch / "report.xml"))
    assert "#x1B[" in (scratch / "report.xml.0").read_text()  # coloured, as on that CI
    assert run.counts is not None
    assert sorted((c.name, c.message) for c in run.counts.cases) == [
        ("tests/test_f.py::test_f", "assert 1 == 2"),
        ("tests/test_imp.py",
         "not collected: ModuleNotFoundError: No module named 'nonexistent_mod'")]
