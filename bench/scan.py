"""Benchmark of `gate scan`: synthetic diffs of 10k, 100k and 1M changed lines across many files.

Each size is a real git repository: a base commit, then a head that adds the lines (test files
in Python, JavaScript, TypeScript and Go, with strings, comments and markers) spread over files
of 500 lines. It prints the time of the diff checks (`gate.engine.runner.scan`, in process) and the
ratio to `git diff` of the same refs, which is the floor: the gate must read that diff anyway.

    .venv/bin/python bench/scan.py            # 10k, 100k and 1M lines
    .venv/bin/python bench/scan.py 10000      # one size
    .venv/bin/python bench/scan.py --dense    # markers in every block: 1 finding per 8 lines
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gate.engine import runner

LINES_PER_FILE = 500
ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.com",
       "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

BLOCKS = {  # ten lines of each language, repeated; one real marker per block
    ".py": "def test_{n}():\n    '''pytest.skip() is not called here'''\n    x = '# noqa'\n"
           "    # it.only( in a comment\n    assert f({n}) == {n}\n\n\n"
           "@pytest.mark.skip\ndef test_s{n}():\n    pass\n",
    ".test.js": "describe('d{n}', () => {{\n  it('a{n}', () => {{\n    const s = 'it.only(';\n"
                "    // xit( here\n    expect(f({n})).toBe({n});\n  }});\n"
                "  it.skip('b{n}', () => {{}});\n  /* fit( */\n  process.exit;\n}});\n",
    ".spec.ts": "describe('d{n}', () => {{\n  it('a{n}', (): void => {{\n"
                "    const v = x as unknown as number; // as any\n    const t = `it.only(${{v}})`;\n"
                "    expect(v).toBe({n});\n  }});\n  // @ts-ignore\n  it('c{n}', () => {{}});\n"
                "  test.todo('t{n}');\n}});\n",
    "_test.go": "func Test{n}(t *testing.T) {{\n\tmsg := \"t.Skip(\"\n\traw := `t.SkipNow()`\n"
                "\t// t.Skip() in a comment\n\tif f({n}) != {n} {{\n\t\tt.Fatal(msg + raw)\n\t}}\n"
                "\tt.Skip(\"later\")\n}}\n\n",
}
PLAIN = {  # ten lines of ordinary test code, with no marker word at all
    ".py": "def test_p{n}():\n    value = compute({n})\n    # the result is stable\n"
           "    assert value == {n}\n    assert str(value) == '{n}'\n\n\n"
           "def test_q{n}():\n    assert compute(0) == 0\n\n",
    ".test.js": "describe('p{n}', () => {{\n  it('computes {n}', () => {{\n"
                "    const value = compute({n}); // stable\n    expect(value).toBe({n});\n"
                "  }});\n  it('is a number', () => {{\n    expect(typeof compute(1)).toBe('number');\n"
                "  }});\n}});\n\n",
    ".spec.ts": "describe('p{n}', () => {{\n  it('computes {n}', (): void => {{\n"
                "    const value: number = compute({n}); // stable\n    expect(value).toBe({n});\n"
                "  }});\n  it('is finite', (): void => {{\n    expect(Number.isFinite(compute(1))).toBe(true);\n"
                "  }});\n}});\n\n",
    "_test.go": "func TestP{n}(t *testing.T) {{\n\tvalue := compute({n}) // stable\n"
                "\tif value != {n} {{\n\t\tt.Fatalf(\"got %d\", value)\n\t}}\n"
                "\tif compute(0) != 0 {{\n\t\tt.Fatal(\"zero\")\n\t}}\n}}\n\n",
}
HEADERS = {".py": "import pytest\n", ".test.js": "", ".spec.ts": "", "_test.go": "package p\n"}


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], env=ENV, check=True,
                          capture_output=True).stdout


def build(root: Path, lines: int, dense: bool = False) -> Path:
    """A repository whose head adds `lines` lines over files of LINES_PER_FILE lines: in each
    file one block in 50 (every block when `dense`) holds markers in code, strings and comments,
    so every file is parsed, and the rest is ordinary test code."""
    repo = root / f"repo-{lines}-{'dense' if dense else 'typical'}"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("bench\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    suffixes = list(BLOCKS)
    for i in range(lines // LINES_PER_FILE):
        suffix = suffixes[i % len(suffixes)]
        body = HEADERS[suffix] + "".join(
            (BLOCKS if dense or k == 0 else PLAIN)[suffix].format(n=i * 100 + k)
            for k in range(LINES_PER_FILE // 10))
        path = repo / f"pkg{i // 100}" / f"f{i}{suffix}"
        path.parent.mkdir(exist_ok=True)
        path.write_text(body)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "head")
    return repo


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(root: Path, lines: int, dense: bool) -> tuple[int, float, float, int]:
    repo = build(root, lines, dense)
    changed = int(git(repo, "diff", "--numstat", "HEAD~1", "HEAD").count(b"\n"))
    diff_s = min(timed(lambda: git(repo, "diff", "HEAD~1", "HEAD")) for _ in range(3))
    options = runner.Options(base="HEAD~1", head="HEAD", repo=str(repo))
    findings = 0
    scan_s = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        report = runner.scan(options)
        scan_s = min(scan_s, time.perf_counter() - start)
        findings = sum(len(c.findings) for c in report.checks)
    return changed, scan_s, diff_s, findings


def main(argv: list[str]) -> int:
    dense = "--dense" in argv
    sizes = [int(a) for a in argv if a != "--dense"] or [10_000, 100_000, 1_000_000]
    print(f"{'lines':>9} {'files':>6} {'findings':>9} {'scan s':>8} {'git diff s':>11} "
          f"{'ratio':>6} {'us/line':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for lines in sizes:
            files, scan_s, diff_s, findings = measure(Path(tmp), lines, dense)
            print(f"{lines:>9} {files:>6} {findings:>9} {scan_s:>8.2f} {diff_s:>11.3f} "
                  f"{scan_s / diff_s:>6.1f} {scan_s / lines * 1e6:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
