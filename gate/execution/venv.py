"""A new virtual environment per gate run, outside the checkout."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from gate.errors import GateError
from gate.execution import installer
from gate.execution.environment import no_git_env


def base_python() -> str:
    """The interpreter for the project: `python3` on PATH, else the gate's own."""
    return shutil.which("python3") or shutil.which("python") or sys.executable


def create(path: str, python: str | None = None) -> str:
    """Create a virtual environment at `path` (no system site-packages); return its path."""
    interpreter = python or base_python()
    uv = installer.find_uv()
    argv = ([uv, "venv", "--quiet", "--seed", "--python", interpreter, path] if uv
            else [interpreter, "-m", "venv", path])
    proc = subprocess.run(
        argv,
        env=no_git_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    if proc.returncode != 0:
        out = proc.stdout.decode("utf-8", "replace").strip()
        raise GateError(
            f"could not create a virtual environment with {interpreter}: {out}. "
            "Install the venv module (Debian: apt-get install python3-venv)"
        )
    return path


def python_of(venv: str) -> str:
    return os.path.join(venv, "bin", "python")
