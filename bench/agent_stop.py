"""Cost of the Claude Code `Stop` hook (`gate hook agent-stop`) next to the pre-commit hook on
the same change, as a ratio taken in one run: the Stop hook first commits the working tree
through a temporary index (gate/agent/snapshot.py), then runs the same diff checks.

The repository and change are hook_latency.py's (300 files, 3 edited and 1 added); the
Stop hook sees them as uncommitted work, the pre-commit hook as the staged change.

    .venv/bin/python bench/agent_stop.py          # 9 runs of each, interleaved
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hook_latency import ENV, GATE, build


def _timed(argv: list[str], repo: Path, stdin: str | None, ok: tuple[int, ...]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=repo, env=ENV, input=stdin, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(done.stdout + done.stderr)
    return took


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 9
    with tempfile.TemporaryDirectory() as tmp:
        repo = build(Path(tmp))
        event = json.dumps({"hook_event_name": "Stop", "cwd": str(repo),
                            "stop_hook_active": False})
        stop, commit = [], []
        for _ in range(runs):
            commit.append(_timed([GATE, "hook", "pre-commit"], repo, None, (0,)))
            stop.append(_timed([GATE, "hook", "agent-stop"], repo, event, (0,)))
    s, c = statistics.median(stop), statistics.median(commit)
    print(f"gate hook agent-stop, {runs} runs: median {s:.3f}s; gate hook pre-commit: "
          f"median {c:.3f}s; ratio {s / c:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
