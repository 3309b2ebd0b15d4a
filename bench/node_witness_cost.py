"""What the Node witness costs a suite (issue 46: at most 5 %): the same Vitest and Jest
suites, from the npm registry, run plain and with the gate's Node preload (NODE_OPTIONS),
which sends every test, the runner's end and what it loads on the evidence channel, read
while they run; in interleaved pairs, the figures are the ratios of the medians of the CPU
time the suite's processes used (user and system) and of the wall time."""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from gate.execution import evidence_channel
from gate.outcomes.runners import reports

FILES = 30
TESTS = 20
VITEST = """\
import {{ describe, it, expect }} from 'vitest';
import {{ add }} from '../src/calc.js';
describe('calc {i}', () => {{
{tests}
}});
"""
TEST = ("  it('adds {n}', () => {{\n"
        "    for (let k = 0; k < 2000; k++) expect(add(k, {n})).toBe(k + {n});\n  }});")


def _project(root: Path, runner: str) -> None:
    (root / "test").mkdir(parents=True, exist_ok=True)
    (root / "src").mkdir(exist_ok=True)
    module = runner == "vitest"
    (root / "package.json").write_text(
        '{"name": "bench", "private": true%s}' % (', "type": "module"' if module else ""))
    export = "export function add" if module else "function add"
    tail = "" if module else "module.exports = { add };\n"
    (root / "src" / "calc.js").write_text(f"{export}(a, b) {{ return a + b; }}\n{tail}")
    tests = "\n".join(TEST.format(n=n) for n in range(TESTS))
    for i in range(FILES):
        body = VITEST.format(i=i, tests=tests)
        if not module:
            body = body.replace("import { describe, it, expect } from 'vitest';\n", "").replace(
                "import { add } from '../src/calc.js';",
                "const { add } = require('../src/calc.js');")
        (root / "test" / f"c{i}.test.js").write_text(body)


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(root: Path, argv: list[str], witnessed: bool) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATE_")}
    cpu, start = _cpu(), time.perf_counter()
    if witnessed:
        report = str(root.parent / f"r-{time.monotonic_ns()}")
        with evidence_channel.opened(report + ".evidence") as channel:
            env.update(reports.env(report), GATE_EVIDENCE=channel.path, GATE_CHECKOUT=str(root))
            subprocess.run(argv, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        assert channel.lines, "the channel got nothing"
    else:
        subprocess.run(argv, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return _cpu() - cpu, time.perf_counter() - start


def node_witness_cost(work: Path, pairs: int = 5) -> dict[str, Any]:
    modules = work / "node-witness-modules"
    modules.mkdir(exist_ok=True)
    (modules / "package.json").write_text('{"name": "holder", "private": true}')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "--cache", str(work / "npm-cache"), "vitest@3", "jest@29"], cwd=modules,
                   check=True, stdout=subprocess.DEVNULL)
    out: dict[str, Any] = {"files": FILES, "tests": FILES * TESTS, "pairs": pairs}
    for runner in ("vitest", "jest"):
        root = work / f"node-witness-{runner}"
        _project(root, runner)
        (root / "node_modules").symlink_to(modules / "node_modules")
        argv = ([str(root / "node_modules/.bin/vitest"), "run"] if runner == "vitest"
                else [str(root / "node_modules/.bin/jest"), "-w", "2"])
        _run(root, argv, False)  # caches warmed once, for both sides
        plain, witnessed = [], []
        for _ in range(pairs):
            plain.append(_run(root, argv, False))
            witnessed.append(_run(root, argv, True))
        cpu = statistics.median(w[0] for w in witnessed) / statistics.median(p[0] for p in plain)
        wall = statistics.median(w[1] for w in witnessed) / statistics.median(p[1] for p in plain)
        out[runner] = {"plain_cpu_s": round(statistics.median(p[0] for p in plain), 2),
                       "cpu_ratio": round(cpu, 3), "wall_ratio": round(wall, 3)}
    return out
