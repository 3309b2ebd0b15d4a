"""What Go's witness costs a suite (issue 46: at most 5 %): the same `go test ./...` of a
module of several packages, with its build cache warm on both sides, run as the gate ran it
before (GOFLAGS=-v -count=1) and with the witness (the overlay of `testing`, the evidence
channel read while it runs), in interleaved pairs; the figures are the ratios of the medians
of the CPU time of the run's processes and of the wall time."""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from gate.execution import evidence_channel
from gate.outcomes.runners import go_witness

TEST = """\
package p{i}

import (
\t"sort"
\t"strconv"
\t"testing"
)

func Test{j}(t *testing.T) {{
\tvalues := make([]string, 0, 2000)
\tfor n := 0; n < 2000; n++ {{
\t\tvalues = append(values, strconv.Itoa(n*7919%2003))
\t}}
\tsort.Strings(values)
\tt.Run("sorted", func(t *testing.T) {{
\t\tif !sort.StringsAreSorted(values) {{
\t\t\tt.Fatal("not sorted")
\t\t}}
\t}})
}}
"""


def _module(root: Path, packages: int, tests: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "go.mod").write_text("module example.com/bench\n\ngo 1.19\n")
    for i in range(packages):
        (root / f"p{i}").mkdir(exist_ok=True)
        (root / f"p{i}" / "p.go").write_text(f"package p{i}\n")
        for j in range(tests):
            (root / f"p{i}" / f"t{j}_test.go").write_text(TEST.format(i=i, j=j))


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _env(work: Path, witnessed: bool) -> dict[str, str]:
    # gate: allow harness -- the bench sets the gate's variables itself, none of the caller's
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATE_")}
    env.update(GOCACHE=str(work / "go-cache"), GOPATH=str(work / "go-path"), GOPROXY="off",
               GOTOOLCHAIN="local", GOFLAGS="-v -count=1")
    if witnessed:
        env.update(go_witness.env(env, str(work / "witness")))
    return env


def _run(root: Path, work: Path, witnessed: bool) -> tuple[float, float]:
    argv = ["go", "test", "./..."]
    cpu, start = _cpu(), time.perf_counter()
    if witnessed:
        with evidence_channel.opened(str(work / "evidence")) as channel:
            subprocess.run(argv, cwd=root, env={**_env(work, True),
                                                "GATE_EVIDENCE": channel.path},
                           check=True, stdout=subprocess.DEVNULL)
        assert channel.lines, "the witness sent nothing"
    else:
        subprocess.run(argv, cwd=root, env=_env(work, False), check=True,
                       stdout=subprocess.DEVNULL)
    return _cpu() - cpu, time.perf_counter() - start


def go_witness_cost(work: Path, quick: bool) -> dict[str, Any]:
    root = work / "go-witness-module"
    packages, tests = (2, 3) if quick else (10, 30)
    _module(root, packages, tests)
    pairs = 1 if quick else 7
    _run(root, work, False)  # each side's packages built once
    _run(root, work, True)
    plain, witnessed = [], []
    for _ in range(pairs):
        plain.append(_run(root, work, False))
        witnessed.append(_run(root, work, True))

    def median(runs: list[tuple[float, float]], i: int) -> float:
        return statistics.median(r[i] for r in runs)

    return {"packages": packages, "tests": packages * tests, "pairs": pairs,
            "plain_cpu_s": round(median(plain, 0), 3),
            "witness_cpu_s": round(median(witnessed, 0), 3),
            "cpu_ratio": round(median(witnessed, 0) / median(plain, 0), 3),
            "wall_ratio": round(median(witnessed, 1) / median(plain, 1), 3)}
