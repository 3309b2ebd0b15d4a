"""The watch over a judged command's memory (gate/execution/memory.py): a process holding
more than the limit is killed with its command, and nothing in the command shows a limit
(issue 50: a resource limit the CI runner lacks tells a gate run from the runner's own)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from gate.execution import process

# holds 300 MiB it has written (bytearray(n) alone would not touch its pages), then waits
GRAB = ("import resource, time; b = b'x' * (300 << 20); "
        "print('took it', resource.getrlimit(resource.RLIMIT_DATA)[0], flush=True); "
        "time.sleep(120)")


def test_a_process_over_the_limit_is_killed_with_its_command(tmp_path: Path) -> None:
    """mahmoud/boltons 3e9983d's new test loops forever on the base's code: ended in about a
    second, the time limit (120 s of sleep here) not reached."""
    done = process.run_argv([sys.executable, "-c", GRAB], cwd=str(tmp_path),
                            env=dict(os.environ), timeout=600, memory_kb=200_000)
    assert done.returncode == -9 and not done.timed_out  # killed, not timed out
    assert "gate: killed: a process of the command held" in done.output
    assert "took it -1" in done.output  # no RLIMIT_DATA: getrlimit finds none


def test_without_the_watch_the_same_process_holds_it(tmp_path: Path) -> None:
    done = process.run_argv([sys.executable, "-c", GRAB.replace("120", "0")],
                            cwd=str(tmp_path), env=dict(os.environ), timeout=600,
                            memory_kb=None)
    assert done.ok and "took it -1" in done.output and "killed" not in done.output


def test_a_limit_of_half_the_machine_is_the_default() -> None:
    with open("/proc/meminfo", encoding="ascii") as f:
        total_kb = int(f.readline().split()[1])
    assert abs(process.MEMORY_LIMIT_KB - total_kb // 2) < total_kb // 20
