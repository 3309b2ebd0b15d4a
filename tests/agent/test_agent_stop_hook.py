"""`gate hook agent-stop`: the Claude Code `Stop` hook, fed the JSON Claude Code sends on
stdin, in a real repository with a cheat and with an honest change."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers.gitrepo import Repo

TEST = "def test_add():\n    assert 1 + 1 == 2\n\n\ndef test_sub():\n    assert 2 - 1 == 1\n"
SKIPPED = ("import pytest\n\n\ndef test_add():\n    assert 1 + 1 == 2\n\n\n"
           "@pytest.mark.skip\ndef test_sub():\n    assert 2 - 1 == 1\n")


def stop(cwd: Path, *args: str, active: bool = False) -> subprocess.CompletedProcess[str]:
    event = {"session_id": "s1", "transcript_path": "/dev/null", "cwd": str(cwd),
             "permission_mode": "default", "hook_event_name": "Stop",
             "stop_hook_active": active}
    return subprocess.run([sys.executable, "-m", "gate", "hook", "agent-stop", *args],
                          input=json.dumps(event), capture_output=True, text=True,
                          cwd="/")


def agent_repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "r")
    repo.commit({"tests/test_a.py": TEST, "a.py": "x = 1\n"}, "base")
    repo.branch("work")
    return repo


def test_a_cheat_blocks_the_stop_and_goes_back_to_the_model(tmp_path: Path) -> None:
    repo = agent_repo(tmp_path)
    repo.write({"tests/test_a.py": SKIPPED})  # uncommitted, as an agent leaves its work
    before = repo.snapshot()
    done = stop(repo.path, "--base", "main")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == ("gate: needs-review: the diff checks found this in your change against "
                        "main (uncommitted work included). Resolve it before you stop.")
    assert "tests/test_a.py:8: " in done.stderr
    assert "[pytest.mark.skip]" in done.stderr
    assert repo.snapshot() == before  # the work was read, not committed or staged


def test_its_honest_twin_lets_the_agent_stop(tmp_path: Path) -> None:
    repo = agent_repo(tmp_path)
    repo.write({"a.py": "x = 1\ny = 2\n", "tests/test_b.py": "def test_b():\n    assert True\n"})
    done = stop(repo.path, "--base", "main")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_committed_work_is_judged_against_the_base(tmp_path: Path) -> None:
    repo = agent_repo(tmp_path)
    repo.commit({"a.py": "x = 1  # noqa\n"})
    assert stop(repo.path).returncode == 0  # against HEAD: nothing uncommitted
    done = stop(repo.path, "--base", "main")
    assert done.returncode == 2 and "a.py:1: " in done.stderr


def test_the_same_findings_block_once_then_a_person_must_look(tmp_path: Path) -> None:
    repo = agent_repo(tmp_path)
    repo.write({"tests/test_a.py": SKIPPED})
    assert stop(repo.path, "--base", "main").returncode == 2
    again = stop(repo.path, "--base", "main", active=True)
    assert again.returncode == 0
    assert "the same findings remain" in again.stderr
    repo.write({"a.py": "x = 1  # noqa\n"})  # new findings are handed back again
    assert stop(repo.path, "--base", "main", active=True).returncode == 2


def test_an_error_of_the_gate_never_blocks_the_agent(tmp_path: Path) -> None:
    repo = agent_repo(tmp_path)
    done = stop(repo.path, "--base", "no-such-base")
    assert done.returncode == 1
    assert "gate: the agent-stop hook could not scan: unknown ref 'no-such-base'" in done.stderr
    outside = tmp_path / "plain"
    outside.mkdir()
    assert stop(outside).returncode == 1


def test_the_pre_push_flags_are_refused_without_blocking_the_agent(tmp_path: Path) -> None:
    done = stop(agent_repo(tmp_path).path, "--runs", "2")
    assert done.returncode == 1
    assert done.stderr == "gate: error: --runs: `gate hook agent-stop` takes only --base\n"
