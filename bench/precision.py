"""Precision on real history: `gate scan --base C^ --head C` on the last N commits of a clone.

Every finding of every diff check is written as one JSON line (repository, commit, check, path,
line, rule, message) for a person to classify as right, true but noise, or wrong; the summary
counts findings by check and rule. Nothing of the repository is copied: give the path of a clone.

    .venv/bin/python bench/precision.py /work/real/humanize               # last 100 commits
    .venv/bin/python bench/precision.py CLONE --commits 50 --out f.jsonl
"""
from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

GATE = [sys.executable, "-m", "gate"]


def commits(clone: Path, count: int, merges: bool = False) -> list[str]:
    """The last `count` first-parent commits of HEAD that have a parent (merges too with
    `merges`: a pull request's merge is then judged against its first parent)."""
    out = subprocess.run(["git", "-C", str(clone), "rev-list", "--first-parent",
                          *([] if merges else ["--no-merges"]),
                          f"--max-count={count}", "HEAD"], capture_output=True, text=True,
                         check=True).stdout.split()
    return [c for c in out if _has_parent(clone, c)]


def _has_parent(clone: Path, commit: str) -> bool:
    return subprocess.run(["git", "-C", str(clone), "rev-parse", "-q", "--verify", f"{commit}^"],
                          capture_output=True).returncode == 0


def scan(clone: Path, commit: str) -> tuple[str, list[dict[str, Any]]]:
    """The verdict of `gate scan` on one commit, and its findings (a gate error as verdict)."""
    done = subprocess.run([*GATE, "scan", "--repo", str(clone), "--base", f"{commit}^",
                           "--head", commit, "--format", "json"], capture_output=True, text=True)
    if done.returncode == 2 or not done.stdout.strip():
        return f"error: {done.stderr.strip()[-300:]}", []
    report = json.loads(done.stdout)
    found = [{"check": c["id"], **f} for c in report["checks"] for f in c["findings"]]
    return report["verdict"], found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("--commits", type=int, default=100)
    parser.add_argument("--merges", action="store_true",
                        help="include first-parent merges (base: the first parent)")
    parser.add_argument("--out", type=Path, help="the findings as JSON lines (default: stdout)")
    args = parser.parse_args(argv)
    clone = args.clone.resolve()
    name = clone.name
    rows: list[dict[str, Any]] = []
    verdicts: collections.Counter[str] = collections.Counter()
    picked = commits(clone, args.commits, args.merges)
    for commit in picked:
        verdict, found = scan(clone, commit)
        verdicts[verdict.split(":")[0]] += 1
        if verdict.startswith("error"):
            rows.append({"repo": name, "commit": commit, "check": "gate-error", "message": verdict})
        subject = subprocess.run(["git", "-C", str(clone), "log", "-1", "--format=%s", commit],
                                 capture_output=True, text=True).stdout.strip()
        rows += [{"repo": name, "commit": commit, "subject": subject, **f} for f in found]
    lines = "".join(json.dumps(r) + "\n" for r in rows)
    if args.out:
        args.out.write_text(lines)
    else:
        sys.stdout.write(lines)
    kinds = collections.Counter(f"{r['check']} {r.get('rule', '')}".strip() for r in rows)
    print(f"{name}: {len(picked)} commits, {dict(verdicts)}, {len(rows)} findings",
          file=sys.stderr)
    for kind, n in kinds.most_common():
        print(f"  {n:4d}  {kind}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
