"""`gate run --logs DIR`: the whole output of every command, one file each; a bad directory
is exit 2 before anything runs; a file planted where a log goes is refused, not followed."""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.gitrepo import Repo, make_change
from helpers.pyproject_fixture import CALC, TEST_CALC, project

from gate import api, cli
from gate.errors import GateError
from gate.execution import logs, process
from gate.execution.environment import clean_env


def test_the_log_has_all_the_output_the_result_keeps_only_its_ends(tmp_path: Path) -> None:
    log = tmp_path / "01-suite-run-1.log"
    script = "for i in range(2000): print('line %04d' % i)"
    done = process.run_shell(f"{sys.executable} -c \"{script}\"", cwd=str(tmp_path),
                             env=clean_env(), timeout=30, limit=1000, log=str(log))
    assert "line 1000" not in done.output
    lines = log.read_text().splitlines()
    assert lines[:3] == [f"$ {sys.executable} -c \"{script}\"", f"# in {tmp_path}", ""]
    assert lines[3:2003] == [f"line {i:04d}" for i in range(2000)]
    assert lines[2003] == ""
    assert lines[2004].startswith("# exit 0 after ")
    assert len(lines) == 2005


def test_a_command_that_is_not_found_and_one_that_times_out(tmp_path: Path) -> None:
    process.run_argv(["/nonexistent/tool"], cwd=str(tmp_path), env=clean_env(), timeout=5,
                     log=str(tmp_path / "a.log"))
    assert (tmp_path / "a.log").read_text().splitlines()[2:4] == [
        "", "command not found: /nonexistent/tool"]
    process.run_shell("echo started; sleep 30", cwd=str(tmp_path), env=clean_env(),
                      timeout=0.5, log=str(tmp_path / "b.log"))
    text = (tmp_path / "b.log").read_text()
    assert "\nstarted\n" in text
    assert "# timed out and was killed after " in text


def test_names_are_numbered_and_kept_inside_the_directory(tmp_path: Path) -> None:
    directory = logs.prepare(str(tmp_path / "new" / "logs"))
    assert directory.path("install") == str(tmp_path / "new" / "logs" / "01-install.log")
    assert directory.path("check-../../etc/x y") == str(
        tmp_path / "new" / "logs" / "02-check-..-..-etc-x-y.log")


def test_a_planted_link_is_refused_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "victim"
    target.write_text("kept")
    (tmp_path / "01-install.log").symlink_to(target)
    with pytest.raises(GateError, match="was already there"):
        process.run_shell("echo overwritten", cwd=str(tmp_path), env=clean_env(), timeout=5,
                          log=str(tmp_path / "01-install.log"))
    assert target.read_text() == "kept"


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.write_text("a file"), "cannot make the directory"),
    (lambda p: (p.mkdir(), (p / "old.log").write_text("")), "the directory is not empty"),
])
def test_a_bad_logs_directory_is_exit_2_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], object],
    message: str
) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {"calc/__init__.py": CALC + "\n"})
    target = tmp_path / "logs"
    make(target)
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--install", "touch ran", "--logs", str(target)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"gate: error: --logs {target}: {message}" in err
    assert "install" not in err  # nothing started


def test_the_python_api_writes_them_too(tmp_path: Path) -> None:
    """For an agent loop: the same logs from `gate.api.run(..., logs=DIR)`."""
    repo = Repo(tmp_path / "work")
    repo.commit({"check.sh": 'grep -q good value.txt && echo "1 passed, 0 failed"\n',
                 "value.txt": "good\n"})
    repo.branch("change")
    repo.commit({"value.txt": "bad\n"})
    report = api.run(str(repo.path), "main", "change", install="echo installed",
                     test="sh check.sh", runs=1, logs=str(tmp_path / "logs"))
    assert report.verdict == "fail"
    # Numbered as the commands start: the base's work runs beside the head's (parallel), so
    # which of them starts first is not fixed.
    logs = {name.split("-", 1)[1]: name for name in os.listdir(tmp_path / "logs")}
    assert sorted(logs) == ["base-install.log", "base-suite.log", "install.log",
                            "suite-run-1.log"]
    assert sorted(name[:3] for name in logs.values()) == ["01-", "02-", "03-", "04-"]
    assert "\ninstalled\n" in (tmp_path / "logs" / logs["install.log"]).read_text()


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_a_run_writes_one_log_per_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = CALC.replace("return a + b", "return a + b + 1")
    config = '[tool.gate]\nchecks = [{name = "lint", run = "echo linted; exit 0"}]\n'
    files = project()
    files["pyproject.toml"] = str(files["pyproject.toml"]) + config
    hidden = {"calc/__init__.py": broken,  # the break, hidden by editing the test to match
              "tests/test_calc.py": TEST_CALC.replace("add(2, 3) == 5", "add(2, 3) == 6")}
    repo, _, _ = make_change(tmp_path / "r", files, hidden)
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "2", "--no-parallel", "--format", "json",
                     "--logs", str(tmp_path / "logs")])
    capsys.readouterr()
    assert code == 3
    names = sorted(os.listdir(tmp_path / "logs"))
    assert names[:7] == ["01-install.log", "02-suite-run-1.log", "03-suite-run-2.log",
                         "04-base-install.log", "05-base-suite.log", "06-base-tests.log",
                         "07-pinned-base-code.log"]
    # pinned's mutants, as many as its time budget let start, then the user check
    assert all(re.fullmatch(r"\d\d-pinned-mutant-\d+\.log", n) for n in names[7:-1]), names
    assert re.fullmatch(r"\d\d-check-lint\.log", names[-1]), names
    lint = names[-1]
    assert "\n# exit 0 after " in (tmp_path / "logs" / "02-suite-run-1.log").read_text()
    assert "\n# exit 0 after " in (tmp_path / "logs" / "05-base-suite.log").read_text()
    base_tests = (tmp_path / "logs" / "06-base-tests.log").read_text()
    assert "assert 6 == 5" in base_tests
    assert "\n# exit 1 after " in base_tests
    assert "linted\n" in (tmp_path / "logs" / lint).read_text()

