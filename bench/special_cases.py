"""`special-cased-input` over a repository's history, with no run: each commit against its
first parent, the detection `pinned` runs (`gate.pinned.special_cases.in_change`) on the
changed code lines, with the tests of the commit itself. A measurement of false alarms on
honest commits (docs/evidence.md): every finding it prints is read by hand.

    .venv/bin/python bench/special_cases.py CLONE [COUNT]   # the last COUNT commits (60)
      of the first-parent history (a merge against its first parent: its pull request)
      that change code in a language the gate reads; one line per commit, then the total
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gate.engine import config
from gate.engine.context import DiffContext
from gate.errors import GateError
from gate.pinned import sides, special_cases
from gate.vcs import diff


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, text=True,
                          capture_output=True).stdout


def _config(repo: str, base: str) -> config.Config:
    """The base's `[tool.gate]` (its test paths), the defaults where it has none or a bad one."""
    try:
        return config.load(repo, base)
    except GateError:
        return config.Config()


def main(argv: list[str]) -> int:
    repo, count = argv[0], int(argv[1]) if len(argv) > 1 else 60
    commits = _git(repo, "rev-list", "--first-parent", "HEAD").split()  # a merge: its PR
    seen = found = 0
    started = time.monotonic()
    for sha in commits:
        if seen >= count:
            break
        parents = _git(repo, "rev-list", "--parents", "-n", "1", sha).split()[1:]
        if not parents:
            continue
        ctx = DiffContext(repo=repo, base=parents[0], head=sha, config=_config(repo, parents[0]),
                          files=diff.changed_files(repo, parents[0], sha))
        code = sides.changed_code(ctx)
        if not any(special_cases.family(c.path) for c in code):
            continue
        seen += 1
        cases = special_cases.found(ctx, code)
        found += len(cases)
        lines = sum(len(c.lines) for c in code)
        print(f"{sha[:8]} {len(code)} file(s), {lines} line(s): {len(cases)} finding(s)")
        for case in cases:
            print(f"    {case.path}:{case.line} {case.message()}")
    print(f"{seen} commits, {found} special-cased-input finding(s), "
          f"{time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
