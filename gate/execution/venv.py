"""A new virtual environment per gate run, outside the checkout."""
from __future__ import annotations

import glob
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


def interpreter(version: str | None) -> str | None:
    """`python3.12` on PATH for version "3.12", where there is one that runs (a pyenv shim
    for a version not selected is on PATH and fails); None otherwise (the project's CI names
    a Python this machine does not have: the default serves)."""
    found = shutil.which(f"python{version}") if version else None
    if found is None:
        return None
    try:
        ran = subprocess.run([found, "-c", "import venv"], env=no_git_env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if ran.returncode == 0 else None


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


def add_path(venv: str, directory: str, name: str) -> None:
    """Put `directory` on the environment's import path with a `.pth` file: its interpreter
    finds what is there even when a command replaces PYTHONPATH (`PYTHONPATH=src pytest`).
    A line naming a directory runs nothing."""
    for site in glob.glob(os.path.join(venv, "lib", "python*", "site-packages")):
        with open(os.path.join(site, f"{name}.pth"), "w", encoding="utf-8") as f:
            f.write(directory + "\n")


def python_of(venv: str) -> str:
    return os.path.join(venv, "bin", "python")
