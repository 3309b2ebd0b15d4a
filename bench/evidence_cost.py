"""What the evidence costs a suite (issue 38: at most 5 %): the same pytest suite, in the same
environment, run with the gate's report plugin as before (the JUnit report, no channel, no
watcher) and with the channel read while it runs and the audit-hook watcher in every Python
process, in interleaved pairs; the figures are the ratios of the medians: of the CPU time
the suite's processes used (user and system: what the evidence adds to the work, which a
loaded machine does not blur) and of the wall time. The suite's tests do what real tests do
to the audit hook: import modules, open files, start a subprocess."""
from __future__ import annotations

import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gate.execution import evidence_channel
from gate.outcomes.runners import pytest as pytest_runner
from gate.outcomes.runners import reports

TEST = """\
import json
import os
import subprocess
import sys
import tempfile


def test_{i}(tmp_path):
    for n in range(20):
        (tmp_path / f"f{{n}}.json").write_text(json.dumps({{"n": n}}))
        assert json.loads((tmp_path / f"f{{n}}.json").read_text()) == {{"n": n}}
    assert os.path.exists(tempfile.gettempdir())
"""
SUBPROCESS = """\
import subprocess
import sys


def test_child():
    assert subprocess.run([sys.executable, "-c", "import json"]).returncode == 0
"""


def _project(root: Path, tests: int) -> None:
    (root / "tests").mkdir(parents=True, exist_ok=True)
    for i in range(tests):
        (root / "tests" / f"test_{i}.py").write_text(TEST.format(i=i))
    (root / "tests" / "test_child.py").write_text(SUBPROCESS)


def _env(report: str, watched: bool) -> dict[str, str]:
    # gate: allow harness -- the bench sets the gate's variables itself, none of the caller's
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATE_")}
    addopts = ["-p", "no:cacheprovider", f"--junitxml={report}", "-o", "junit_family=xunit1"]
    env.update(PYTEST_ADDOPTS=" ".join(shlex.quote(a) for a in addopts), GATE_JUNIT=report,
               PYTEST_PLUGINS=pytest_runner.PLUGIN, PYTHONPATH=pytest_runner.PLUGIN_DIR)
    if watched:
        env["PYTHONPATH"] += os.pathsep + reports.PYTHON_PRELOAD_DIR
    return env


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(root: Path, watched: bool) -> tuple[float, float]:
    """The run's CPU time (its processes') and wall time."""
    run = time.monotonic_ns()
    # laid out as a gate run is: the report and the channel in a scratch directory, the
    # tests' temporary files elsewhere (the watcher looks closer at opens in the scratch)
    for place in ("scratch", "tmp"):
        (root.parent / place).mkdir(exist_ok=True)
    report = str(root.parent / "scratch" / f"r-{run}.xml")
    # a base temp of the run's own: pytest's removal of the oldest of its kept ones (6,000
    # files here) moved a run's CPU time by a third from one run to the next
    argv = [sys.executable, "-m", "pytest", "-q", f"--basetemp={root.parent}/tmp/t-{run}",
            "tests"]
    cpu, start = _cpu(), time.perf_counter()
    if watched:
        with evidence_channel.opened(report + ".evidence") as channel:
            env = {**_env(report, True), "GATE_EVIDENCE": channel.path,
                   "GATE_CHECKOUT": str(root)}
            subprocess.run(argv, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
        assert channel.lines, "the channel got nothing"
    else:
        subprocess.run(argv, cwd=root, env=_env(report, False), check=True,
                       stdout=subprocess.DEVNULL)
    return _cpu() - cpu, time.perf_counter() - start


def evidence_cost(work: Path, quick: bool) -> dict[str, Any]:
    root = work / "evidence-project"
    _project(root, 20 if quick else 300)
    pairs = 1 if quick else 9
    plain, watched = [], []
    _run(root, False)  # bytecode written once, for both sides
    for _ in range(pairs):
        plain.append(_run(root, False))
        watched.append(_run(root, True))

    def median(runs: list[tuple[float, float]], i: int) -> float:
        return statistics.median(r[i] for r in runs)

    return {"tests": 21 if quick else 301, "pairs": pairs,
            "plain_cpu_s": round(median(plain, 0), 3),
            "evidence_cpu_s": round(median(watched, 0), 3),
            "cpu_ratio": round(median(watched, 0) / median(plain, 0), 3),
            "cpu_ratio_of_pairs": round(statistics.median(
                w[0] / p[0] for p, w in zip(plain, watched, strict=True)), 3),
            "wall_ratio": round(median(watched, 1) / median(plain, 1), 3)}
