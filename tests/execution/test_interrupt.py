"""Ctrl-C and SIGTERM while a command runs: the gate stops it, removes what it made, and exits
130 / 143, leaving the user's tree as it was."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.gitrepo import make_change


def _interrupted(argv: list[str], env: dict[str, str], started: Path,
                 signum: int) -> tuple[str, int]:
    """The gate of `argv` sent `signum` once its command has made `started`: its stderr and
    exit status."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), proc.communicate(timeout=10)
    proc.send_signal(signum)
    # A bound, not a speed (the machine may be busy): well under the commands' `sleep 600`,
    # which a gate that waited for its running trials before ending them would sit out.
    _, err = proc.communicate(timeout=120)
    return err, proc.returncode


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_during_the_suite_cleans_up(tmp_path: Path, signum: int, code: int) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    (repo.path / "untracked.txt").write_text("mine\n")
    before = repo.snapshot()
    temp = tmp_path / "tmp"
    temp.mkdir()
    started = tmp_path / "suite-started"
    env = {**os.environ, "TMPDIR": str(temp)}
    err, returncode = _interrupted(  # --isolation off: the test writes `started`
        [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
         "--head", "change", "--install", "true", "--isolation", "off",
         "--test", f"touch {started}; sleep 600 & wait"], env, started, signum)
    assert returncode == code, err
    assert list(temp.iterdir()) == []
    assert repo.snapshot() == before
    survivors = subprocess.run(["pgrep", "-f", f"touch {started}"], stdout=subprocess.PIPE)
    assert survivors.stdout == b""


def test_an_interrupted_base_run_is_not_cached_as_the_base_outcomes(tmp_path: Path) -> None:
    """Ctrl-C while the base's suite runs beside the suite's runs: the base's run is killed, and
    what the killed run gave (no outcomes, a failed suite) must not be kept as the base's
    outcomes. The next PR against this base would read a base that fails, and call a head's
    regressions pre-existing."""
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "a\n", "head.txt": "h\n"})
    temp, cache = tmp_path / "tmp", tmp_path / "cache"
    temp.mkdir()
    started = tmp_path / "base-suite-started"
    env = {**os.environ, "TMPDIR": str(temp), "XDG_CACHE_HOME": str(cache)}
    err, returncode = _interrupted(  # the head's runs end at once; the base's sleeps
        [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
         "--head", "change", "--install", "true", "--isolation", "off", "--parallel",
         "--test", f"test -f head.txt && exit 0; touch {started}; sleep 600 & wait"],
        env, started, signal.SIGINT)
    assert returncode == 130, err
    kept = [p.name for p in (cache / "gate").rglob("*") if p.is_file()] if (
        cache / "gate").exists() else []
    assert kept == [], kept


def test_no_command_of_an_ended_run_starts(tmp_path: Path) -> None:
    """The race behind a SIGTERM that waited out a `sleep 600`: the base's thread, between
    its install and its suite when the run was ended, started its suite after the ended run's
    processes were killed. A command marked with an ended run's marker does not start."""
    from gate.execution import process, workspace

    root = tmp_path / "gate-abc"
    root.mkdir()
    marked = {**os.environ, workspace.run_marker(str(root)): "1"}
    workspace.end_commands(str(root))
    done = process.run_shell(f"touch {tmp_path / 'started'}", cwd=str(tmp_path), env=marked,
                             timeout=30)
    assert (done.returncode, done.ok) == (-signal.SIGKILL, False)
    assert not (tmp_path / "started").exists()
    other = process.run_shell(f"touch {tmp_path / 'other'}", cwd=str(tmp_path),
                              env=dict(os.environ), timeout=30)  # another run's: starts
    assert other.ok and (tmp_path / "other").exists()

