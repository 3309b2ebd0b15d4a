"""The subprocess wrapper: time limits, process groups, bounded output, clean environment."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from gate import process
from gate.environment import clean_env, no_git_env, with_venv


def test_output_is_combined_and_returned(tmp_path: Path) -> None:
    done = process.run_shell("echo out; echo err >&2; exit 3", cwd=str(tmp_path),
                             env=dict(os.environ), timeout=10)
    assert (done.returncode, done.timed_out, done.not_found) == (3, False, False)
    assert done.output.splitlines() == ["out", "err"]


def test_a_flood_of_output_keeps_only_its_head_and_tail(tmp_path: Path) -> None:
    script = "import sys\nfor i in range(200000): sys.stdout.write('line %06d\\n' % i)\n"
    done = process.run_argv([sys.executable, "-c", script], cwd=str(tmp_path),
                            env=dict(os.environ), timeout=60, limit=10_000)
    assert done.ok
    assert done.dropped_bytes == 200000 * 12 - 20_000
    assert done.output.startswith("line 000000\n")
    assert done.output.rstrip().endswith("line 199999")
    assert f"[... {done.dropped_bytes} bytes of output not kept ...]" in done.output
    assert len(done.output) < 20_100


def test_a_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    start = time.monotonic()
    done = process.run_shell(f"sleep 60 & echo $! > {pidfile}; wait", cwd=str(tmp_path),
                             env=dict(os.environ), timeout=1)
    assert done.timed_out
    assert done.returncode is None
    assert time.monotonic() - start < 30
    child = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(50):  # the kernel may take a moment to reap it
            os.kill(child, 0)
            time.sleep(0.1)


def test_a_command_that_kills_its_process_group_does_not_kill_the_gate(tmp_path: Path) -> None:
    done = process.run_shell("kill -9 0", cwd=str(tmp_path), env=dict(os.environ), timeout=10)
    assert not done.ok
    assert done.returncode == -9


def test_a_missing_command_is_not_found(tmp_path: Path) -> None:
    done = process.run_shell("no-such-command-gate-test", cwd=str(tmp_path),
                             env=dict(os.environ), timeout=10)
    assert done.not_found
    assert done.returncode == 127


def test_clean_env_drops_secrets_and_git_hook_variables() -> None:
    env = clean_env({
        "PATH": "/bin", "HOME": "/h", "GITHUB_TOKEN": "t", "GH_TOKEN": "t",
        "ACTIONS_RUNTIME_URL": "u", "AWS_SECRET_ACCESS_KEY": "k", "DB_PASSWORD": "p",
        "NPM_AUTH_TOKEN": "t", "MY_API_KEY": "k", "GIT_DIR": "/x/.git", "GIT_INDEX_FILE": "i",
        "GIT_WORK_TREE": "/x", "FORCE_COLOR": "1", "LANG": "C.UTF-8",
    })
    assert env == {"PATH": "/bin", "HOME": "/h", "LANG": "C.UTF-8", "CI": "1", "NO_COLOR": "1"}


def test_no_git_env_keeps_everything_else() -> None:
    assert no_git_env({"GIT_DIR": "d", "GIT_AUTHOR_NAME": "a", "X": "1"}) == {
        "GIT_AUTHOR_NAME": "a", "X": "1"}


def test_with_venv_puts_the_fresh_env_first_and_drops_other_venvs(tmp_path: Path) -> None:
    other = tmp_path / "other-venv"
    (other / "bin").mkdir(parents=True)
    (other / "pyvenv.cfg").write_text("home = /usr/bin\n")
    env = with_venv({"PATH": f"{other / 'bin'}:/usr/bin"}, str(tmp_path / "fresh"))
    assert env["PATH"] == f"{tmp_path / 'fresh' / 'bin'}:/usr/bin"
    assert env["VIRTUAL_ENV"] == str(tmp_path / "fresh")
