"""A head that attacks the gate: each attack is built in a real repository, judged end to end
with real pytest, and must end in fail or needs-review, flagged by the check that catches it.

The project needs no install: the base's `.gate.toml` runs this interpreter's pytest, once."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import Repo, make_change

from gate import cli

pytestmark = pytest.mark.slow  # whole gate runs

GATE_TOML = f'install = "true"\ntest = "{sys.executable} -m pytest -q"\nruns = 1\n'
CALC = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
BROKEN = CALC.replace("return a + b", "return a - b")
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
TEST_SUB = "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n"
BASE = {".gate.toml": GATE_TOML, "calc.py": CALC, "tests/test_add.py": TEST_ADD,
        "tests/test_sub.py": TEST_SUB}


def judge(capsys: pytest.CaptureFixture[str], repo: Path,
          *args: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change",
                     "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def flagged(report: dict[str, Any], check_id: str) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["rule"]) for f in check(report, check_id)["findings"]]


def attack(tmp_path: Path, head: dict[str, str | None]) -> Repo:
    repo, _, _ = make_change(tmp_path / "r", BASE, head)
    return repo


HOOKWRAPPER = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"


def test_a_conftest_that_rewrites_failures_into_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conftest = HOOKWRAPPER + (
        "def pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n"
        "    outcome.get_result().outcome = 'passed'\n")
    repo = attack(tmp_path, {"calc.py": BROKEN, "conftest.py": conftest})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"  # fooled: the report itself is forged
    assert check(report, "base-tests")["status"] == "failed"  # the base's conftest: none
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert flagged(report, "check-config") == [("conftest.py", 5, "conftest-hook")]
    assert "pytest_runtest_makereport" in check(report, "check-config")["findings"][0]["message"]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_conftest_that_prints_passed_lines_and_forces_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conftest = ("def pytest_sessionfinish(session, exitstatus):\n"
                "    print('=== 2 passed in 0.01s ===')\n"
                "    session.exitstatus = 0\n")
    repo = attack(tmp_path, {"calc.py": BROKEN, "conftest.py": conftest})
    code, report = judge(capsys, repo.path)
    suite = check(report, "suite")
    assert suite["status"] == "failed"  # exit 0, but the JUnit report holds the failure
    assert flagged(report, "suite") == [("tests/test_add.py", 4, "test-failed")]
    assert flagged(report, "check-config") == [("conftest.py", 1, "conftest-hook")]
    assert (report["verdict"], code) == ("fail", 1)


def test_a_conftest_that_deselects_the_failing_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conftest = ("def pytest_collection_modifyitems(config, items):\n"
                "    items[:] = [i for i in items if i.name != 'test_add']\n")
    repo = attack(tmp_path, {"calc.py": BROKEN, "conftest.py": conftest})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert flagged(report, "check-config") == [("conftest.py", 1, "conftest-hook")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_collect_ignore_of_the_failing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = attack(tmp_path, {"calc.py": BROKEN,
                             "conftest.py": "collect_ignore = ['tests/test_add.py']\n"})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert flagged(report, "check-config") == [("conftest.py", 1, "conftest-hook")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_minus_k_in_addopts_deselects_the_failing_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = attack(tmp_path, {"calc.py": BROKEN,
                             "pytest.ini": "[pytest]\naddopts = -k 'not test_add'\n"})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert flagged(report, "check-config") == [("pytest.ini", 2, "pytest-config")]
    assert (report["verdict"], code) == ("needs-review", 3)


def test_a_head_gate_toml_that_relaxes_the_gate_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {**BASE, ".gate.toml": GATE_TOML.replace(
        "runs = 1", "runs = 2")}, {"calc.py": BROKEN, ".gate.toml": 'test = "true"\nruns = 1\n'})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["summary"].startswith("0 of 2 runs passed")
    assert [(p, r) for p, _, r in flagged(report, "check-config")] == [
        (".gate.toml", "gate-config")] * 3  # install removed, test and runs changed
    assert (report["verdict"], code) == ("fail", 1)


def test_a_test_file_renamed_out_of_discovery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = attack(tmp_path, {"calc.py": BROKEN, "tests/test_add.py": None,
                             "tests/add_checks.py": TEST_ADD})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert [(p, r) for p, _, r in flagged(report, "tests-removed")] == [
        ("tests/test_add.py", "test-removed")]
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert (report["verdict"], code) == ("needs-review", 3)


@pytest.mark.parametrize("body", [
    "def test_add():\n    pass\n",
    "def test_add():\n    try:\n        assert add(2, 3) == 5\n    except AssertionError:\n"
    "        pass\n",
])
def test_a_gutted_test_under_the_same_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    repo = attack(tmp_path, {"calc.py": BROKEN,
                             "tests/test_add.py": "from calc import add\n\n\n" + body})
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert flagged(report, "tests-removed") == []
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert (report["verdict"], code) == ("needs-review", 3)


@pytest.mark.parametrize("kill", ["os.kill(os.getppid(), 9)", "os.killpg(0, 9)"])
def test_a_test_that_kills_its_parent_or_its_process_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kill: str
) -> None:
    test = f"import os\n\n\ndef test_add():\n    {kill}\n"
    repo = attack(tmp_path, {"tests/test_add.py": test})
    code, report = judge(capsys, repo.path)  # the gate survives to answer
    assert check(report, "suite")["status"] == "failed"
    assert (report["verdict"], code) == ("fail", 1)


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def sleepers(token: str) -> list[int]:
    """The processes (host pids) whose command line holds `token`: inside the isolation
    boundary a test sees only its own PID namespace's numbers, so it names them by a token."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if token.encode() in f.read() and running(int(pid)):
                    found.append(int(pid))
        except OSError:
            continue
    return found


def test_background_processes_and_daemons_die_with_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = f"sleeper-{os.urandom(6).hex()}"
    started = tmp_path / "started"
    started.mkdir()
    test = (
        "import os, subprocess, sys, time\n\n\n"
        "def test_add():\n"
        f"    sleeper = [sys.executable, '-c', 'import time; time.sleep(30)', {token!r}]\n"
        "    background = subprocess.Popen(sleeper, stdout=subprocess.DEVNULL)\n"
        "    daemon = subprocess.Popen(sleeper, start_new_session=True,\n"
        "                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "    for p in (background, daemon):\n"
        f"        open(os.path.join({str(started)!r}, str(p.pid)), 'w').close()\n"
        "    if os.fork() == 0:  # orphaned: the daemon is nobody's child now\n"
        "        os._exit(0)\n"
    )
    repo = attack(tmp_path, {"tests/test_add.py": test})
    # the process group and the marker, without the boundary's PID namespace (which kills
    # them too, test_isolation): the test writes its pids on the host
    code, report = judge(capsys, repo.path, "--isolation", "off")
    assert (report["verdict"], code) == ("pass", 0)
    assert len(list(started.iterdir())) == 2
    deadline = time.monotonic() + 5
    while sleepers(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleepers(token) == []


def test_a_test_that_vandalises_git_leaves_the_users_repository_intact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The checkout borrows the user's objects (its alternates file names them): the test runs
    `git worktree prune` and `git gc` there, then deletes its own `.git`."""
    test = (
        "import pathlib, shutil, subprocess\n\n\n"
        "def test_add():\n"
        "    objects = pathlib.Path('.git/objects/info/alternates').read_text().strip()\n"
        "    user = pathlib.Path(objects).parent.parent\n"
        "    for args in (['worktree', 'prune'], ['gc', '--prune=now', '-q']):\n"
        "        subprocess.run(['git', '-C', str(user), *args], check=True)\n"
        "    shutil.rmtree('.git')\n"
        "    assert False\n"
    )
    repo = attack(tmp_path, {"tests/test_add.py": test})
    refs = repo.git("for-each-ref")
    code, report = judge(capsys, repo.path)
    assert check(report, "suite")["status"] == "failed"
    assert (report["verdict"], code) == ("fail", 1)
    assert repo.git("for-each-ref") == refs
    assert repo.git("fsck", "--full", "--strict") == ""
    assert repo.git("worktree", "list", "--porcelain").count("worktree ") == 1
    assert not (tmp_path / "r" / ".git" / "worktrees").exists()


def test_a_test_file_turned_into_a_symlink_out_of_the_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """base-tests puts the base's test file back: it must replace the link, not write through
    it into the file outside."""
    victim = tmp_path / "victim.py"
    victim.write_text("def test_add():\n    pass\n")
    stamp = os.stat(victim).st_mtime_ns
    repo = attack(tmp_path, {"calc.py": BROKEN, "tests/test_add.py": None})
    os.symlink(victim, repo.path / "tests" / "test_add.py")
    repo.git("add", "-A")
    repo.git("commit", "-q", "--amend", "--no-edit")
    code, report = judge(capsys, repo.path)
    assert flagged(report, "base-tests") == [("tests/test_add.py", 4, "base-test-failed")]
    assert victim.read_text() == "def test_add():\n    pass\n"
    assert os.stat(victim).st_mtime_ns == stamp
    assert (report["verdict"], code) == ("needs-review", 3)


def test_attacks_are_also_flagged_without_running_anything(tmp_path: Path) -> None:
    """`gate scan` (the pre-commit hook) names the hook before any test runs."""
    conftest = ("def pytest_collection_modifyitems(config, items):\n"
                "    items[:] = []\n")
    repo = attack(tmp_path, {"conftest.py": conftest})
    scan = subprocess.run([sys.executable, "-m", "gate", "scan", "--repo", str(repo.path),
                           "--base", "main", "--head", "change", "--format", "json"],
                          stdout=subprocess.PIPE, text=True)
    report = json.loads(scan.stdout)
    assert flagged(report, "check-config") == [("conftest.py", 1, "conftest-hook")]
    assert (report["verdict"], scan.returncode) == ("needs-review", 3)


def test_a_directory_turned_into_a_symlink_is_replaced_for_the_while(tmp_path: Path) -> None:
    from gate.execution.overlay import overlay

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "test_add.py").write_text("outside\n")
    root = tmp_path / "checkout"
    root.mkdir()
    os.symlink(outside, root / "tests")
    with overlay(str(root), {"tests/test_add.py": b"base\n"}):
        assert not (root / "tests").is_symlink()
        assert (root / "tests" / "test_add.py").read_bytes() == b"base\n"
        assert (outside / "test_add.py").read_text() == "outside\n"
    assert os.readlink(root / "tests") == str(outside)
    assert [p.name for p in outside.iterdir()] == ["test_add.py"]
    assert (outside / "test_add.py").read_text() == "outside\n"
