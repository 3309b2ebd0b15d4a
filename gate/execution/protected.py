"""What the judged code may not write: the paths the isolation boundary mounts read-only.

The gate's own code, the runner's step files and tool cache, the system's directories and
the git config files that the gate's own later git commands read, the report's directory;
`isolation.choose` adds the repository and the run's root.
"""
from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Mapping

import gate
from gate.execution.environment import global_git_configs

SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot")
# GitHub Actions' step files: written there, they would reach the job's later steps.
RUNNER_FILES = ("GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY",
                "GITHUB_STATE")


def gate_installation() -> list[str]:
    """The gate's code and the interpreter's: its package, its virtual environment, every
    directory it imports from (`sys.path`: site-packages, the user's site-packages, an editable
    install's source), its scripts (the `gate` the Action's publish step runs), the standard
    library."""
    paths = [os.path.dirname(os.path.abspath(gate.__file__)), *(p for p in sys.path if p)]
    if sys.prefix != sys.base_prefix:
        paths.append(sys.prefix)
    scheme = sysconfig.get_paths()
    paths += [scheme[k] for k in ("purelib", "platlib", "scripts", "stdlib", "platstdlib")
              if k in scheme]
    return paths


def runner_files(environ: Mapping[str, str]) -> list[str]:
    """The directories of the runner's step files, `RUNNER_TEMP` (where they live) and the
    tool cache (the toolchains of the job's later steps)."""
    dirs = [os.path.dirname(environ[k]) for k in RUNNER_FILES if environ.get(k)]
    return dirs + [environ[k] for k in ("RUNNER_TEMP", "RUNNER_TOOL_CACHE") if environ.get(k)]


def host_files(environ: Mapping[str, str]) -> list[str]:
    """What the gate's own later commands (git) and the machine's other processes read: the
    system's directories (as root the judged code would otherwise keep the owner's right to
    write them: /etc/gitconfig, /etc/ld.so.preload, /usr/bin/git) and the git config files."""
    return [*SYSTEM_DIRS, *global_git_configs(environ),
            *(environ[k] for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM") if environ.get(k))]


# Where the judged commands' tools keep their caches and state: a report directory that holds
# one of them is not made read-only (an install would fail writing there).
WRITABLE_VARIABLES = ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "UV_CACHE_DIR",
                      "PIP_CACHE_DIR", "npm_config_cache", "CARGO_HOME", "GOPATH", "GOCACHE")


def report_directory(report: str, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The report's directory, to keep read-only; none when honest tests write there (the
    temporary directory, the home directory, a tool's cache directory, or a directory above
    them): then the report rests on the PID namespaces (nothing of the judged code is alive
    when it is written) and on being written by a rename."""
    where = os.path.realpath(os.path.dirname(os.path.abspath(report)))
    shared = [os.path.realpath(p) for p in (
        tempfile.gettempdir(), os.path.expanduser("~"),
        *(environ[k] for k in WRITABLE_VARIABLES if environ.get(k)))]
    if any(p == where or p.startswith(where.rstrip(os.sep) + os.sep) for p in shared):
        return []
    return [where]


def normalised(paths: Iterable[str]) -> tuple[str, ...]:
    real = {os.path.realpath(p) for p in paths if p and os.path.exists(p)} - {"/"}
    # A path inside another protected one is protected with it.
    outer = [p for p in real if not any(p.startswith(q + os.sep) for q in real)]
    return tuple(sorted(outer))
