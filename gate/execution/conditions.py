"""Other conditions: what a real machine might have and the gate's other runs do not.

One of the suite's runs (the last) is made under them, so that code that is right only under
the gate's own conditions shows it: a time bomb (right only before a date), code right only
while the gate's memory limit is set, or while its own file is a few minutes old, or on the
gate's host name. A test whose outcome changes with them is named (`checks/suite.py`).

    varied = conditions.possible(boundary)      # what this machine and boundary can do
    ws = dataclasses.replace(ws, conditions=varied)   # every command of that run under them

- **the clock a year ahead**: libfaketime (the PyPI package `libfaketime` ships the library
  in its wheel, x86-64 Linux only) in every dynamically linked process of the command,
  through `LD_PRELOAD` and `FAKETIME` (`clock_env`). A file in /etc (`ld.so.preload`,
  `faketimerc`) would be there for a `stat` in this run only; the variables, and the one
  libfaketime adds (`FAKETIME_SHARED`), the gate's Python preload takes out of `os.environ`
  before any code of the checkout runs (docs/isolation.md: what is still observable). It
  cannot move what does not ask glibc the time: static binaries, Go
  (its runtime reads the vDSO directly), setuid programs (the loader ignores the preload),
  and the kernel's own timestamps: a file written during the run has today's date, so it
  looks a year old to a process whose clock moved.
- **the checkout's files a month old**: before the command, inside the boundary (the writes
  go with the command's overlay), every file and directory of the checkout but `.git` and
  `node_modules` gets a modification and access time 30 days back. Only where each command
  has an overlay of its own (else the run's later commands would inherit it).

Nothing else differs (issue 50): every run has the machine's host name (a `Conditions` with
another one resolves through a copy of `/etc/hosts` naming it), and no run has a memory
limit a process can see (`memory` watches from outside).
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import os
import platform
import sys
import time
from collections.abc import Mapping, Sequence

from gate.execution import clock_probe

HOSTNAME = ""  # every judged command's host name: "", the machine's own
CLOCK_DAYS = 365
FILES_DAYS = 30
# Copied into the command's /etc when it is an overlay: files a container binds over /etc
# (Docker's resolv.conf), which an overlay of /etc would hide.
_KEPT = ("resolv.conf",)
# With the clock: libfaketime leaves the monotonic clock alone (moved with the wall clock,
# an absolute sleep on it, as Python's time.sleep makes, would wait for a year).
EVERY_RUN = {"DONT_FAKE_MONOTONIC": "1"}
_AGE = ('find . \\( -name .git -o -name node_modules \\) -prune -o -exec touch -c -h -d "@$1" '
        '{} + 2>/dev/null; shift; exec "$@"')


@dataclasses.dataclass(frozen=True)
class Conditions:
    """The conditions of one run; the defaults are the gate's usual ones."""
    clock_days: int = 0  # the clock this many days ahead (0: the real clock)
    files_days: int = 0  # the checkout's files this many days old (0: as checked out)
    unlimited: bool = False  # no memory limit
    hostname: str = HOSTNAME  # "": the machine's
    # why the clock stays real where it was asked for ("rustc hangs ..."; not a condition)
    unmoved: str = dataclasses.field(default="", compare=False)

    def __bool__(self) -> bool:
        return self != USUAL

    def describe(self) -> str:
        """'the clock 365 days ahead, no memory limit, ...', as a finding names them."""
        said = []
        if self.clock_days:
            said.append(f"the clock {self.clock_days} days ahead")
        if self.files_days:
            said.append(f"the checkout's files {self.files_days} days old")
        if self.unlimited:
            said.append("no memory limit")
        if self.hostname != HOSTNAME:
            said.append(f"the host name {self.hostname}")
        return ", ".join(said) or "the usual conditions"

    def singles(self) -> list[Conditions]:
        """Each of these conditions alone."""
        each = [Conditions(clock_days=self.clock_days), Conditions(files_days=self.files_days),
                Conditions(unlimited=self.unlimited), Conditions(hostname=self.hostname)]
        return [c for c in each if c]

    def memory_kb(self, usual: int | None) -> int | None:
        return None if self.unlimited else usual


USUAL = Conditions()


def faketime_library() -> str | None:
    """The libfaketime shipped by the `libfaketime` package, where it can run here (x86-64
    Linux, glibc); None elsewhere."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        spec = importlib.util.find_spec("libfaketime")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(next(iter(spec.submodule_search_locations)), "vendor", "libfaketime",
                        "src", "libfaketime.so.1")
    return path if os.path.isfile(path) else None


def possible(isolated: bool, overlays: bool, env: Mapping[str, str] | None = None,
             checkout: str = "") -> Conditions:
    """The varied run's conditions that can be made here: the files' age needs the
    boundary's overlays, the clock libfaketime and the project's toolchains (the project in
    `checkout`, on the PATH of `env`, the judged environment; None: not asked) that start
    under it (`clock_probe`: rustc and rustdoc hang). The rest is every run's: the machine's
    host name, and no memory limit a process can see."""
    library = faketime_library()
    clock = clock_env(Conditions(clock_days=CLOCK_DAYS))
    hung = clock_probe.hung_tools(env, clock, checkout) if clock and env and checkout else ()
    return Conditions(clock_days=CLOCK_DAYS if library and not hung else 0,
                      files_days=FILES_DAYS if isolated and overlays else 0,
                      unmoved=(f"{', '.join(hung)} hung at the start under libfaketime"
                               if hung else ""))


def _write(path: str, text: str) -> None:
    """`text` in a new file renamed over `path` (never written through a link)."""
    new = f"{path}.{os.getpid()}.{time.monotonic_ns()}"
    with open(new, "x", encoding="utf-8") as f:
        f.write(text)
    os.replace(new, path)


def _hosts(hostname: str) -> str:
    try:
        with open("/etc/hosts", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        text = "127.0.0.1 localhost\n"
    return f"{text.rstrip()}\n127.0.1.1 {hostname}\n"


def etc_files(where: str, c: Conditions, whole: bool) -> dict[str, str]:
    """The files of /etc a command under `c` sees, written under `where` (a directory the
    judged code cannot write): {name: path}. `whole`: the command gets an overlay of /etc
    (the clock through ld.so.preload), so files a container binds there are copied too."""
    os.makedirs(where, exist_ok=True)
    wanted = {"hosts": _hosts(c.hostname), "hostname": c.hostname + "\n"}
    library = faketime_library() if c.clock_days else None
    if whole and library is not None:
        wanted["ld.so.preload"] = library + "\n"
        wanted["faketimerc"] = f"+{c.clock_days}d\n"
        for name in _KEPT:
            try:
                with open(os.path.join("/etc", name), encoding="utf-8") as f:
                    wanted[name] = f.read()
            except OSError:
                pass
    out = {}
    for name, text in wanted.items():
        path = os.path.join(where, name)
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        if not same:
            _write(path, text)
        out[name] = path
    return out


def clock_env(c: Conditions) -> dict[str, str]:
    """The variables that move the clock (the gate's Python preload hides them from
    `os.environ`; other programs can read them)."""
    library = faketime_library() if c.clock_days else None
    if library is None:
        return {}
    return {"LD_PRELOAD": library, "FAKETIME": f"+{c.clock_days}d", **EVERY_RUN}


def remove_clock_leftovers(pid: int, shm: str = "/dev/shm") -> None:
    """Remove the shared memory and semaphore that libfaketime made for the command whose
    first process was `pid` (it names them after that process, hands them down to its
    children in FAKETIME_SHARED and never removes them): outside the boundary they would stay
    in the machine's /dev/shm, two files for each command of every varied run (inside it, the
    command's /dev is its own). A command without the clock made none: nothing to remove."""
    for name in (f"faketime_shm_{pid}", f"sem.faketime_sem_{pid}"):
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(shm, name))


def aged(inner: Sequence[str], c: Conditions, now: float | None = None) -> list[str]:
    """`inner`, first making its working directory's files `c.files_days` old."""
    if not c.files_days:
        return list(inner)
    then = int((time.time() if now is None else now) - c.files_days * 86400)
    return ["/bin/sh", "-c", _AGE, "gate", str(then), *inner]
