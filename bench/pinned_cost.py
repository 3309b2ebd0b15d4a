"""`pinned`'s cost in suite runs on real commits, as a ratio inside one gate run: the `pinned`
check's wall time over the suite's one run (`--runs 1`), both measured in the same run on the
same machine under the same load (docs/performance.md).

    .venv/bin/python bench/pinned_cost.py CLONE SHA [SHA...] [-- GATE-RUN-OPTIONS]
      one line per commit (pinned's seconds, the suite's, the ratio, pinned's summary), then
      the median ratio
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cost(repo: str, sha: str, extra: list[str]) -> tuple[float, float, str]:
    """(pinned's seconds, one suite run's seconds, pinned's summary)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run([sys.executable, "-m", "gate", "run", "--repo", repo, "--base",
                        f"{sha}~1", "--head", sha, "--runs", "1", "--pinned", "review",
                        "--format", "json", "--report", str(report), *extra],
                       capture_output=True, text=True, check=False)
        checks = {c["id"]: c for c in json.loads(report.read_text())["checks"]}
    return (checks["pinned"]["duration_s"], checks["suite"]["duration_s"],
            checks["pinned"]["summary"])


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    repo, shas = argv[0], argv[1:argv.index("--")] if "--" in argv else argv[1:]
    ratios = []
    for sha in shas:
        pinned, suite, summary = cost(repo, sha, extra)
        ratio = pinned / suite if suite else float("nan")
        ratios.append(ratio)
        print(f"{sha[:8]} pinned {pinned:.1f} s, suite {suite:.1f} s: {ratio:.2f}; {summary}")
    print(f"median {statistics.median(ratios):.2f} over {len(ratios)} commit(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
