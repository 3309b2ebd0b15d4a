"""Fresh checkouts that the user's tree never sees, removed whatever happens.

A checkout is a `git clone --shared` of the user's repository into a temporary directory:
it reads the user's objects but has its own refs, index and worktree list, so nothing a
command does in it can move the user's branches or index, and nothing is registered in the
user's repository that a killed run could leave behind.

Each run has its own root (`mkdtemp`: no shared path, no lock). Its commands carry the run's
marker in their environment; when the run ends every process still marked is killed, and a
run that was killed outright (SIGKILL) is cleaned up, processes and files, by the next one.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

from gate.errors import GateError
from gate.execution import reaper, stale
from gate.execution.environment import gate_git_env
from gate.vcs import git

TEMP_PREFIX = "gate-"


def run_marker(root: str) -> str:
    """The environment variable that marks every process of the run whose root is `root`."""
    return "GATE_RUN_" + os.path.basename(root)[len(TEMP_PREFIX):]


def environment_dir(root: str) -> str:
    """Where the run's fresh environment goes: beside its root, not in it (and removed with
    it). Inside the isolation boundary the root is read-only and its directories are writable
    mounts of their own; an environment there could not hard-link from the installer's cache
    (a link cannot cross mounts), and uv would copy every package instead."""
    return root + stale.SIBLING


def layers_dir(root: str) -> str:
    """Where the run's trials put their own files (`gate/trials/layer.py`): beside its root,
    not in it (removed with it). A command after the install sees the root through an
    overlay, and an overlay's layers may not lie inside the directory it shows."""
    return root + stale.LAYERS


def end_commands(root: str) -> None:
    """Kill every process of the run whose root is `root`; none of it starts after."""
    reaper.end(run_marker(root))


def clean_stale(tempdir: str | None = None) -> list[str]:
    """Remove the roots (and kill the processes) of gate runs that were killed outright."""
    return stale.clean(tempdir or tempfile.gettempdir(), TEMP_PREFIX, end_commands)


@contextlib.contextmanager
def temporary_root() -> Iterator[str]:
    """A private temporary directory for one gate run, removed on exit (also on Ctrl-C),
    with every process marked with `run_marker(root)` killed first."""
    clean_stale()
    root = tempfile.mkdtemp(prefix=TEMP_PREFIX)
    try:
        stale.claim(root)
        yield root
    finally:
        end_commands(root)
        shutil.rmtree(root, ignore_errors=True)
        for sibling in stale.SIBLINGS:
            shutil.rmtree(root + sibling, ignore_errors=True)


def checkout(repo: str, sha: str, dest: str) -> str:
    """Check out `sha` of `repo` into the new directory `dest`."""
    env = gate_git_env()
    base = ["git", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"]
    steps = [
        [*base, "clone", "--quiet", "--shared", "--no-checkout", repo, dest],
        [*base, "-C", dest, "checkout", "--quiet", "--detach", sha],
    ]
    for argv in steps:
        proc = subprocess.run(argv, env=env, capture_output=True, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            message = proc.stderr.decode("utf-8", "replace").strip()
            raise GateError(f"could not check out {sha[:12]} into {dest}: {message}")
    return dest


@contextlib.contextmanager
def fresh_worktree(repo: str, sha: str) -> Iterator[str]:
    """A clean checkout of `sha`, removed on exit."""
    with temporary_root() as root:
        yield checkout(repo, sha, os.path.join(root, "checkout"))


def resolve_repo(path: str) -> str:
    return git.toplevel(os.path.abspath(path))
