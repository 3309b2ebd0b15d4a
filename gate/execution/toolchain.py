"""The tools that run the judged code, by what decides its outcomes: the gate's version, the
platform (system, machine, C library), the interpreter that makes the fresh environment (and
the pip it seeds), the installer (uv and its version, or pip), and Node, Rust and Go where they
are on PATH. A run of the base made with other tools is not the base's outcome for this run
(the cache's key)."""
from __future__ import annotations

import functools
import platform
import shutil

from gate import __version__
from gate.execution import installer, process, venv
from gate.execution.environment import no_git_env

_PYTHON = "import sys, ensurepip; print(sys.version.split()[0], 'pip', ensurepip.version())"
_OTHERS = (("node", "--version"), ("rustc", "--version"), ("cargo", "--version"),
           ("go", "version"))


@functools.cache
def _version(*argv: str) -> str:
    """What `argv` prints about its version (its first line); the same tool is asked once."""
    done = process.run_argv(argv, cwd="/", env=no_git_env(), timeout=60)
    first = done.output.strip().splitlines()[:1]
    return first[0] if done.ok and first else f"unknown (exit {done.returncode})"


def _platform() -> str:
    """The system, the machine and the C library: not the kernel's release, which a CI
    runner's image changes every week with no effect on a test's outcome."""
    return " ".join([platform.system(), platform.machine(), *platform.libc_ver()])


def identity() -> tuple[str, ...]:
    """The tools, each with its path and version."""
    python = venv.base_python()
    uv = installer.find_uv()
    tools = [f"gate {__version__}", _platform(),
             f"python {python} {_version(python, '-c', _PYTHON)}",
             f"uv {uv} {_version(uv, '--version')}" if uv else "pip (no uv)"]
    for name, *ask in _OTHERS:
        found = shutil.which(name)
        if found:
            tools.append(f"{name} {found} {_version(found, *ask)}")
    return tuple(tools)
