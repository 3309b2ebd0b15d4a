"""Fresh checkouts: the head's files, in a directory that is always removed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.execution import stale, workspace


def test_fresh_worktree_has_the_head_and_is_removed(tmp_path: Path) -> None:
    repo, _, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    repo.git("checkout", "-q", "main")
    before = repo.snapshot()
    with workspace.fresh_worktree(str(repo.path), head) as checkout:
        assert Path(checkout, "a.txt").read_text() == "head\n"
        assert not Path(checkout).is_relative_to(repo.path)
        made = checkout
    assert not os.path.exists(made)
    assert repo.snapshot() == before


def test_fresh_worktree_is_removed_on_error(tmp_path: Path) -> None:
    repo, _, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    made = ""
    with pytest.raises(KeyboardInterrupt), workspace.fresh_worktree(str(repo.path), head) as c:
        made = c
        raise KeyboardInterrupt
    assert made and not os.path.exists(made)
    assert repo.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_command_in_the_checkout_cannot_move_the_users_branches(tmp_path: Path) -> None:
    import subprocess

    repo, base, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    refs = repo.git("for-each-ref")
    with workspace.fresh_worktree(str(repo.path), head) as checkout:
        subprocess.run(["git", "branch", "-f", "main", head], cwd=checkout, check=True)
        subprocess.run(["git", "worktree", "prune"], cwd=checkout, check=True)
    assert repo.git("for-each-ref") == refs
    assert repo.git("rev-parse", "main").strip() == base


SLEEPER = [sys.executable, "-c", "import time; time.sleep(30)"]


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)


def test_every_process_of_the_run_is_killed_when_its_root_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with workspace.temporary_root() as root:
        env = {**os.environ, workspace.run_marker(root): "1"}
        daemon = subprocess.Popen(SLEEPER, env=env, start_new_session=True)
        bystander = subprocess.Popen(SLEEPER, start_new_session=True)
    try:
        assert wait_gone(daemon.pid)
        assert running(bystander.pid)
        assert list(tmp_path.iterdir()) == []
    finally:
        bystander.kill()
        bystander.wait()
        daemon.wait()


KILLED_RUN = """\
import os, signal, subprocess, sys
from gate.execution import workspace
with workspace.temporary_root() as root:
    env = {**os.environ, workspace.run_marker(root): "1"}
    daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], env=env,
                              stdout=subprocess.DEVNULL,
                              start_new_session=True)
    os.mkdir(os.path.join(root, "checkout"))
    print(root, daemon.pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_root_and_processes_of_a_run_killed_with_sigkill_are_cleaned_by_the_next(
    tmp_path: Path,
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    killed = subprocess.run([sys.executable, "-c", KILLED_RUN], env={**os.environ,
                            "TMPDIR": str(temp)}, stdout=subprocess.PIPE, text=True)
    assert killed.returncode == -signal.SIGKILL
    root, pid = killed.stdout.split()
    daemon = int(pid)
    try:
        assert os.path.isdir(os.path.join(root, "checkout"))
        assert running(daemon)
        live = tempfile.mkdtemp(prefix=workspace.TEMP_PREFIX, dir=temp)
        stale.claim(live)  # this process's: alive
        unclaimed = tempfile.mkdtemp(prefix=workspace.TEMP_PREFIX, dir=temp)  # being made
        reused = tempfile.mkdtemp(prefix=workspace.TEMP_PREFIX, dir=temp)
        Path(reused, stale.OWNER_FILE).write_text(f"{os.getpid()} 1\n")  # a reused pid
        other = temp / "not-gate"
        other.mkdir()
        assert sorted(workspace.clean_stale(str(temp))) == sorted([root, reused])
        assert wait_gone(daemon)
        assert sorted(p.name for p in temp.iterdir()) == sorted(
            [os.path.basename(live), os.path.basename(unclaimed), "not-gate"])
    finally:
        if running(daemon):
            os.kill(daemon, signal.SIGKILL)
