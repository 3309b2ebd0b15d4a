"""The subprocess wrapper: time limits, process groups, bounded output, clean environment."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from gate.execution import process
from gate.execution.environment import clean_env, no_git_env, with_venv


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


@pytest.mark.slow
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
    assert env == {"PATH": "/bin", "HOME": "/h", "LANG": "C.UTF-8", "CI": "true"}


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


DAEMON = """\
import os, sys, time
if os.fork():
    sys.exit(0)
os.setsid()
if os.fork():
    sys.exit(0)
if sys.argv[2] == 'detach':  # as a real daemon does: its output no longer goes to the pipe
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
with open(sys.argv[1] + '.tmp', 'w') as f:
    f.write(str(os.getpid()))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
time.sleep(30)
"""


def running(pid: int) -> bool:
    """Alive and not a zombie (a zombie waits for a parent that is not the test's)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def start_daemon_command(tmp_path: Path, stdio: str = "detach") -> tuple[str, Path]:
    """A shell command that starts a daemon in a new session, waits until it is up, and exits."""
    script = tmp_path / "daemon.py"
    script.write_text(DAEMON)
    pidfile = tmp_path / "daemon.pid"
    return (f"{sys.executable} {script} {pidfile} {stdio}; "
            f"while [ ! -e {pidfile} ]; do sleep 0.01; done", pidfile)


def test_a_daemon_that_left_the_session_is_killed_when_its_command_ends(tmp_path: Path) -> None:
    command, pidfile = start_daemon_command(tmp_path)
    start = time.monotonic()
    done = process.run_shell(command, cwd=str(tmp_path), env=dict(os.environ), timeout=20)
    assert done.returncode == 0
    assert time.monotonic() - start < 20  # the daemon lives 30 s: the gate did not wait for it
    daemon = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while running(daemon) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(daemon)


def test_a_daemon_holding_the_output_pipe_does_not_hold_the_gate(tmp_path: Path) -> None:
    """The daemon keeps stdout open; the reader would wait for it without the reaper."""
    command, pidfile = start_daemon_command(tmp_path, stdio="keep")
    start = time.monotonic()
    done = process.run_shell(command + "; echo done", cwd=str(tmp_path),
                             env=dict(os.environ), timeout=20)
    assert done.output == "done\n"
    assert time.monotonic() - start < 20  # the daemon lives 30 s: the gate did not wait for it
    daemon = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while running(daemon) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(daemon)


def test_a_command_that_kills_its_parent_kills_a_shell_not_the_gate(tmp_path: Path) -> None:
    """`exec` (or a shell that execs the last command, as bash does) would make the command a
    child of the gate; the wrapper shell stays in between. Without it, this kills pytest."""
    command = f"exec {sys.executable} -c 'import os; os.kill(os.getppid(), 9)'"
    done = process.run_shell(command, cwd=str(tmp_path), env=dict(os.environ), timeout=10)
    assert done.returncode == -9
    assert done.command == command
