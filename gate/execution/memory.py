"""The watch over a judged command's memory, from outside it.

Each of the command's processes may hold at most `limit_kb` of resident memory: a runaway
allocation (mahmoud/boltons 3e9983d: the head's new test loops forever on the base's code and
filled 24 GB in two minutes) is killed in about a second, with the command, instead of
filling the machine until the kernel's OOM killer picks a victim, which may be the gate or
the runner. The watch reads `/proc` from the gate's side: nothing in the command shows it
(no `RLIMIT_DATA` for `getrlimit` to find, as the CI runner's own run has none; a cgroup's
`memory.max` would show in `/sys/fs/cgroup` and `/proc/self/cgroup`, and the gate cannot
make one where it is not delegated, as on GitHub's runners).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable

PERIOD_S = 0.5
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def _processes() -> dict[int, tuple[int, int]]:
    """{pid: (parent pid, resident kB)} of every process this one can see."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # gone
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 21:
            out[int(name)] = (int(fields[1]), int(fields[21]) * _PAGE_KB)
    return out


def over(root: int, limit_kb: int) -> tuple[int, int] | None:
    """(pid, resident kB) of a process under `root` (itself included) holding more than
    `limit_kb`; None when none does."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    todo = [root]
    seen: set[int] = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        if pid in table and table[pid][1] > limit_kb:
            return pid, table[pid][1]
        todo.extend(children.get(pid, ()))
    return None


def watch(root: int, limit_kb: int, kill: Callable[[], None],
          said: list[str]) -> threading.Event:
    """Watch `root`'s processes until the returned event is set; over the limit, `kill()`
    and say so in `said`."""
    done = threading.Event()

    def loop() -> None:
        while not done.wait(PERIOD_S):
            found = over(root, limit_kb)
            if found is not None:
                said.append(f"gate: killed: a process of the command held {found[1] >> 10} "
                            f"MiB of memory, more than the limit of {limit_kb >> 10} MiB "
                            "(half the machine's)")
                kill()
                return

    threading.Thread(target=loop, daemon=True).start()
    return done
