"""Latency of the `gate-scan` pre-commit hook: `gate hook pre-commit` as git runs it, a new
process each time (interpreter start and imports included), on a typical commit.

The repository has 300 files (Python and JavaScript, tests and code, 60 lines each); the
staged change edits 3 of them and adds 1 (about 60 changed lines). The hook must feel
instant: well under a second.

    .venv/bin/python bench/hook_latency.py          # 15 runs
    .venv/bin/python bench/hook_latency.py 50       # 50 runs
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GATE = str(Path(sys.executable).parent / "gate")
ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.com",
       "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
PY = "def test_{n}():\n    assert f({n}) == {n}\n\n\n"
JS = "it('a{n}', () => {{\n  expect(f({n})).toBe({n});\n}});\n\n"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], env=ENV, check=True, capture_output=True)


def build(root: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for i in range(300):
        suffix, block = ("_test.py", PY) if i % 2 else (".test.js", JS)
        path = repo / f"pkg{i // 50}" / f"m{i}{suffix}"
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(block.format(n=i * 100 + k) for k in range(15)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for i in (1, 2, 3):  # the typical commit: three files edited, one added, all staged
        path = next((repo / f"pkg{i // 50}").glob(f"m{i}_*")
                    if i % 2 else (repo / f"pkg{i // 50}").glob(f"m{i}.*"))
        path.write_text(path.read_text() + "".join(
            (PY if i % 2 else JS).format(n=9000 + i * 10 + k) for k in range(4)))
    (repo / "pkg0" / "new_test.py").write_text("".join(PY.format(n=k) for k in range(8)))
    git(repo, "add", "-A")
    return repo


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 15
    with tempfile.TemporaryDirectory() as tmp:
        repo = build(Path(tmp))
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run([GATE, "hook", "pre-commit"], cwd=repo, env=ENV,
                                  capture_output=True)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                sys.stderr.write(done.stdout.decode() + done.stderr.decode())
                return 1
    print(f"gate hook pre-commit, {runs} runs: median {statistics.median(times):.3f}s, "
          f"min {min(times):.3f}s, max {max(times):.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
