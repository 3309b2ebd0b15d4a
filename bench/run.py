"""gate's benchmarks: each figure is a ratio of two things measured in the same run."""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import evidence_cost
import fixtures
import go_witness_cost
import hook_latency
import node_witness_cost
import scan
import smoke

from gate.execution import installer

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
TWENTY = ("requests", "flask", "click", "attrs", "rich", "python-dateutil", "pyyaml", "tomli")


def timed(argv: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def gate(repo: Path, *args: str, env: dict[str, str]) -> tuple[float, dict[str, Any]]:
    report = repo.parent / f"report-{time.monotonic_ns()}.json"
    start = time.perf_counter()
    subprocess.run([PYTHON, "-m", "gate", "run", "--repo", str(repo), "--base", "main",
                    "--head", "change", "--format", "json", "--report", str(report), *args],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, json.loads(report.read_text())


def checkout_and_install(repo: Path, head: str, d: Path, v: Path, env: dict[str, str]) -> str:
    """What the gate does before its first run, as plain commands: a checkout of `head` at `d`,
    a fresh environment at `v` and the install, with the tool the gate uses (uv where found),
    so that a ratio to it is the gate's own cost; the environment's python."""
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(d)],
                   check=True)
    subprocess.run(["git", "-C", str(d), "checkout", "-q", "--detach", head], check=True)
    py = str(v / "bin" / "python")
    uv = installer.find_uv()
    if uv:
        uv_env = {**installer.uv_settings(env), "VIRTUAL_ENV": str(v)}
        subprocess.run([uv, "venv", "-q", "--seed", "--python", "python3", str(v)],
                       check=True, env=uv_env)
        timed([uv, "pip", "install", "-q", "-e", ".[test]"], cwd=d, env=uv_env)
    else:
        subprocess.run([PYTHON, "-m", "venv", str(v)], check=True)
        timed([py, "-m", "pip", "install", "-q", "-e", ".[test]"], cwd=d, env=env)
    return py


def bare(repo: Path, head: str, runs: int, env: dict[str, str]) -> float:
    """The gate's work as plain commands: a checkout, a venv, the install, N suite runs and
    the base-tests rerun of the one changed test file."""
    with tempfile.TemporaryDirectory() as tmp:
        d, v = Path(tmp, "checkout"), Path(tmp, "venv")
        start = time.perf_counter()
        py = checkout_and_install(repo, head, d, v, env)
        for _ in range(runs):
            timed([py, "-m", "pytest", "-q"], cwd=d, env=env)
        base_file = fixtures.git(repo, "show", "main:tests/test_000.py")
        (d / "tests" / "test_000.py").write_text(base_file)
        timed([py, "-m", "pytest", "-q", "tests/test_000.py"], cwd=d, env=env)
        return time.perf_counter() - start


def overhead(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    suite = smoke.SUITE_S if quick else 2.0
    repo = work / "overhead"
    _, head = smoke.project(work, "overhead", quick, files=10, suite_seconds=suite)
    tries = 1 if quick else 3
    # Untimed: fills uv's cache and the file cache for both sides, and compiles the gate's
    # bytecode (an editable install, as in .ci/run, compiles it on first use; pip install
    # compiles it when installing).
    if not quick:
        bare(repo, head, 1, env)
        # Without the isolation boundary (measured on its own, below): the processes of a PID
        # namespace are not in the children's CPU time, which this comparison reads.
        gate(repo, "--runs", "1", "--isolation", "off", env=env)
    gate_times, bare_times, gate_cpu, bare_cpu = [], [], [], []
    for _ in range(tries):  # interleaved, best of each: the machine is noisy
        before = children_cpu()
        took, report = gate(repo, "--isolation", "off", env=env)
        gate_times.append(took)
        middle = children_cpu()
        if quick:  # the gate's side only (the same plain commands run in `floor`)
            smoke.passed("overhead", report)
            return {"suite_s": suite, "gate_s": round(took, 2),
                    "gate_cpu_s": round(middle - before, 2)}
        bare_times.append(bare(repo, head, 3, env))
        gate_cpu.append(middle - before)
        bare_cpu.append(children_cpu() - middle)
    g, b = min(gate_times), min(bare_times)
    return {"suite_s": suite, "gate_s": round(g, 2), "bare_s": round(b, 2),
            "ratio": round(g / b, 3), "gate_own_s": round(g - b, 2),
            "gate_cpu_s": round(min(gate_cpu), 2), "bare_cpu_s": round(min(bare_cpu), 2)}


def isolation_cost(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`gate run` with the isolation boundary against the same run without it (interleaved,
    best of each), and one command started in the boundary against the same command bare."""
    suite = smoke.SUITE_S if quick else 2.0
    repo = work / "isolation"
    smoke.project(work, "isolation", quick, files=10, suite_seconds=suite)
    tries = 1 if quick else 5
    if not quick:
        gate(repo, "--runs", "1", "--isolation", "off", env=env)  # untimed: warms the caches
    # (No CPU figure: processes that end with a PID namespace are not counted in the
    # children's rusage, so the isolated side would look cheaper than it is.)
    on, off, level = [], [], ""
    for i in range(tries):  # interleaved, each side first in turn, best of each
        if i % 2:
            off.append(gate(repo, "--isolation", "off", env=env)[0])
        seconds, report = gate(repo, "--isolation", "auto", env=env)
        on.append(seconds)
        level = report["isolation"]["level"]
        if quick:  # the run in the boundary only (the one without: overhead's)
            smoke.passed("isolation", report)
        elif not i % 2:
            off.append(gate(repo, "--isolation", "off", env=env)[0])
    per_command = command_in_boundary(work, 5 if quick else 50)
    g = min(on)
    if quick:
        return {"level": level, "suite_s": suite, "isolated_s": round(g, 2), **per_command}
    b = min(off)
    return {"level": level, "suite_s": suite, "isolated_s": round(g, 2), "bare_s": round(b, 2),
            "ratio": round(g / b, 3), "added_s": round(g - b, 2), **per_command}


# The gate with the boundary as it was before issue 22: a writable `/` (only the protected
# paths read-only) and no overlays. uv copies on both sides (separate mounts): measured apart.
# gate: allow harness -- the bench runs the gate as it was, to measure the boundary's cost
_UNSEALED = ("import sys; from gate.execution import bwrap; bwrap.FLAGS = bwrap.OLD_FLAGS; "
             "bwrap.overlays_work = lambda path: False; from gate import cli; "
             "sys.exit(cli.main(sys.argv[1:]))")


def sealed_cost(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`gate run` in the sealed boundary (read-only world, an overlay per command after the
    install, uv copying) against the same run in the boundary as it was (interleaved, best of
    each, one run of the bench)."""
    repo = work / "sealed"
    smoke.project(work, "sealed", quick, files=10, suite_seconds=1.0)
    tries = 5

    def timed_gate(argv0: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run([*argv0, "run", "--repo", str(repo), "--base", "main", "--head",
                        "change", "--format", "json", "--isolation", "required"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - start

    sealed, unsealed = [PYTHON, "-m", "gate"], [PYTHON, "-c", _UNSEALED]
    if quick:  # the sealed run only, and that the gate as it was still starts
        took, report = gate(repo, "--isolation", "required", env=env)
        smoke.passed("sealed", report)
        subprocess.run([*unsealed, "--version"], check=True, stdout=subprocess.DEVNULL)
        return {"sealed_s": round(took, 2), **sealed_command(work, 5)}
    timed_gate(sealed)  # untimed: warms the caches
    new, old = [], []
    for i in range(tries):
        first, second = (sealed, unsealed) if i % 2 else (unsealed, sealed)
        a, b = timed_gate(first), timed_gate(second)
        new.append(a if first is sealed else b)
        old.append(b if first is sealed else a)
    n, o = min(new), min(old)
    return {"sealed_s": round(n, 2), "unsealed_s": round(o, 2), "ratio": round(n / o, 3),
            "added_s": round(n - o, 2), **sealed_command(work, 5 if quick else 50)}


# The gate with every suite run under the usual conditions (no varied run, issue 38).
# gate: allow harness -- the bench runs the gate without its varied run, to measure its cost
_UNVARIED = ("import sys; from gate.execution import conditions; "
             "conditions.possible = lambda *a: conditions.USUAL; from gate import cli; "
             "sys.exit(cli.main(sys.argv[1:]))")


def varied_cost(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`gate run` whose suite's last run is made under other conditions (the clock moved by
    libfaketime, the checkout's files aged in the run's overlay) against the same gate with
    every run under the usual ones (interleaved, best of each, one run of the bench)."""
    repo = work / "varied"
    smoke.project(work, "varied", quick, files=10, suite_seconds=1.0)

    def timed_gate(argv0: list[str]) -> tuple[float, dict[str, Any]]:
        start = time.perf_counter()
        done = subprocess.run([*argv0, "run", "--repo", str(repo), "--base", "main", "--head",
                               "change", "--format", "json", "--isolation", "required"],
                              env=env, capture_output=True, text=True, check=False)
        report: dict[str, Any] = json.loads(done.stdout) if done.stdout.strip() else {}
        return time.perf_counter() - start, report

    varied, usual = [PYTHON, "-m", "gate"], [PYTHON, "-c", _UNVARIED]
    if quick:  # the varied run only, and that the gate without it still starts
        took, report = timed_gate(varied)
        smoke.passed("varied", report)
        subprocess.run([*usual, "--version"], check=True, stdout=subprocess.DEVNULL)
        return {"varied_s": round(took, 2), **varied_command(work, 5)}
    timed_gate(varied)  # untimed: warms the caches
    new, old = [], []
    for i in range(5):
        first, second = (varied, usual) if i % 2 else (usual, varied)
        a, b = timed_gate(first)[0], timed_gate(second)[0]
        new.append(a if first is varied else b)
        old.append(b if first is varied else a)
    n, o = min(new), min(old)
    return {"varied_s": round(n, 2), "usual_s": round(o, 2), "ratio": round(n / o, 3),
            "added_s": round(n - o, 2), **varied_command(work, 30)}


def varied_command(work: Path, n: int) -> dict[str, Any]:
    """One command (`true`) in the boundary under the varied run's conditions (the /etc
    overlay, libfaketime loaded, the files aged: here a checkout of one file) against the
    same command under the usual ones: best of `n`, interleaved."""
    from gate.execution import conditions, isolation

    boundary = isolation.choose("required")
    root = work / "varied-root"
    for d in ("tmp", "checkout"):
        (root / d).mkdir(parents=True, exist_ok=True)
    (root / "checkout" / "a.py").write_text("x = 1\n")
    varied = conditions.possible(True, boundary.overlays)

    def argv(under: conditions.Conditions) -> list[str]:
        return boundary.wrap(["true"], root=str(root), cwd=str(root / "checkout"),
                             tmp=str(root / "tmp"), layered=[str(root / "checkout")],
                             under=under)
    a, b = [], []
    for _ in range(n):
        a.append(timed_any(argv(varied)))
        b.append(timed_any(argv(conditions.USUAL)))
    return {"command_varied_ms": round(min(a) * 1000, 1),
            "command_usual_ms": round(min(b) * 1000, 1)}


def sealed_command(work: Path, n: int) -> dict[str, Any]:
    """One command after the install (checkout, environment and home through overlays, in the
    read-only world) against the same command in the boundary as it was (writable binds on a
    writable `/`), interleaved, best of `n`."""
    from gate.execution import bwrap, isolation

    root = work / "sealed-root"
    for name in ("checkout", "venv", "home", "scratch", "tmp"):
        (root / name).mkdir(parents=True, exist_ok=True)
    boundary = isolation.choose("required")
    mine = [str(root / d) for d in ("checkout", "venv", "home")]
    place = {"root": str(root), "cwd": str(root / "checkout"), "tmp": str(root / "tmp")}
    sealed = boundary.wrap(["true"], own=[str(root / "scratch")], layered=mine, **place)
    assert boundary.bwrap is not None
    unsealed = bwrap.argv(boundary.bwrap, ["true"], read_only=(*boundary.protected, str(root)),
                          writable=[*mine, str(root / "scratch")], cwd=place["cwd"],
                          tmp=place["tmp"], tmp_bytes=boundary.tmp_bytes)
    unsealed[1:1 + len(bwrap.FLAGS)] = bwrap.OLD_FLAGS
    a, b = [], []
    for _ in range(n):
        a.append(timed_any(sealed))
        b.append(timed_any(unsealed))
    return {"command_sealed_ms": round(min(a) * 1000, 1),
            "command_unsealed_ms": round(min(b) * 1000, 1)}


def _sdist(links: Path, name: str) -> None:
    """A one-module sdist in `links`: pip builds its wheel once and keeps it in its cache."""
    import io
    import tarfile

    files = {"pyproject.toml": '[build-system]\nrequires = ["setuptools"]\n'
             'build-backend = "setuptools.build_meta"\n'
             f'[project]\nname = "{name}"\nversion = "1.0"\n', f"{name}.py": "X = 1\n"}
    with tarfile.open(links / f"{name}-1.0.tar.gz", "w:gz") as tar:
        for rel, text in files.items():
            info = tarfile.TarInfo(f"{name}-1.0/{rel}")
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))


def cache_cost(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """An install on a warm cache, started as the gate starts it in the boundary: with the
    installer's cache writable (a trusted install: the base's) against the cache seen through
    an overlay (the head's: what it writes goes with it); interleaved, best of each, a fresh
    environment for each (made untimed)."""
    from gate.execution import isolation
    from gate.execution.run_workspace import Workspace

    # Under --quick, the one sdist only (what the cache keeps: its wheel, once built), built
    # with setuptools from the bench's own wheelhouse (nothing to download).
    packages: tuple[str, ...] = () if quick else TWENTY
    wheels = work / "cache-wheels"
    if quick:
        shutil.copytree(env["PIP_FIND_LINKS"], wheels)
    else:
        fixtures.wheelhouse(wheels, (*packages, "setuptools", "wheel"))
    _sdist(wheels, "benchhelper")
    root, cache = work / "cache-root", work / "cache-pip"
    cache.mkdir()
    boundary = isolation.choose("required")
    installer_env = {k: v for k, v in env.items() if not k.startswith("PIP_")}
    installer_env.update(PIP_CACHE_DIR=str(cache), PIP_DISABLE_PIP_VERSION_CHECK="1",
                         PIP_FIND_LINKS=str(wheels), PIP_NO_INDEX="1")  # named: visible

    # Under --quick, one environment with pip, made as the gate makes its own (uv where found:
    # venv's ensurepip takes seconds), copied for each install.
    template, uv = work / "cache-env", installer.find_uv()
    if quick:
        subprocess.run([uv, "venv", "-q", "--seed", "--python", PYTHON, str(template)] if uv
                       else [PYTHON, "-m", "venv", str(template)], check=True)

    def install(trusted: bool) -> float:
        shutil.rmtree(root, ignore_errors=True)
        for name in ("checkout", "scratch", "tmp", "home"):
            (root / name).mkdir(parents=True)
        (root / "checkout" / "requirements.txt").write_text("\n".join(
            (*packages, "benchhelper")) + "\n")
        if quick:
            shutil.copytree(template, root / "env", symlinks=True)
        else:
            subprocess.run([PYTHON, "-m", "venv", str(root / "env")], check=True)
        ws = Workspace(str(root / "checkout"), str(root / "scratch"),
                       {**installer_env, "TMPDIR": str(root / "tmp"), "HOME": str(root / "home"),
                        "VIRTUAL_ENV": str(root / "env")},
                       600, (), None, boundary, str(root / "home"), (str(cache),),
                       warms_caches=trusted)
        argv = ws.wrap([str(root / "env" / "bin" / "python"), "-m", "pip", "install", "-q",
                        "-r", "requirements.txt"], str(root / "checkout"))
        return timed(argv, env=ws.env)

    if not quick:  # a smoke test needs no warm-up
        install(True)  # untimed: warms the cache (benchhelper's wheel built once)
    tries = 1 if quick else 5
    warming, layered = [], []
    for i in range(tries):
        for trusted in ((True, False) if i % 2 else (False, True)):
            (warming if trusted else layered).append(install(trusted))
    w, o = min(warming), min(layered)
    return {"packages": len(packages) + 1, "writable_cache_s": round(w, 2),
            "overlaid_cache_s": round(o, 2), "ratio": round(o / w, 3),
            "added_s": round(o - w, 2)}


def command_in_boundary(work: Path, n: int) -> dict[str, Any]:
    from gate.execution import isolation

    root = work / "boundary-root"
    (root / "tmp").mkdir(parents=True, exist_ok=True)
    boundary = isolation.choose("auto")
    wrapped = boundary.wrap(["true"], root=str(root), cwd=str(root), tmp=str(root / "tmp"))
    bare = min(timed_any(["true"]) for _ in range(n))
    inside = min(timed_any(wrapped) for _ in range(n))
    return {"command_bare_ms": round(bare * 1000, 1), "command_isolated_ms":
            round(inside * 1000, 1)}


def children_cpu() -> float:
    """CPU seconds (user and system) of the children that have ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def scoped_base_tests(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    repo, files = work / "scoped", smoke.FILES if quick else 50
    smoke.project(work, "scoped", quick, files=files, suite_seconds=2.0)
    _, report = warmed(repo, env) if quick else gate(repo, "--runs", "1", env=env)
    if quick:
        smoke.passed("scoped_base_tests", report)
    checks = {c["id"]: c for c in report["checks"]}
    suite_s, base_s = checks["suite"]["duration_s"], checks["base-tests"]["duration_s"]
    return {"test_files": files, "changed": 1, "suite_run_s": suite_s, "base_tests_s": base_s,
            "ratio": round(base_s / suite_s, 3), "summary": checks["base-tests"]["summary"]}


def pinned_cost(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`gate run --runs 1` with `pinned` (the default budget: 20 mutants, one suite run of
    time) against the same run with it off, on a change of 12 code lines and a new test."""
    repo = work / "pinned"
    smoke.project(work, "pinned", quick, files=10, suite_seconds=2.0)
    body = "".join(f"\n\ndef f{i}(x):\n    if x > {i}:\n        return x - {i}\n"
                   f"    return x * {i}\n" for i in range(4))
    fixtures.commit(repo, {
        "benchpkg/__init__.py": "def add(a, b):\n    return a + b\n" + body,
        "tests/test_f.py": "from benchpkg import f0, f1\n\n\ndef test_f():\n"
                           "    assert f0(5) == 5\n    assert f1(0) == 0\n"}, "code")
    if quick:  # the run with `pinned` only, which must have run it
        on_s, report = gate(repo, "--runs", "1", "--pinned", "report", env=env)
        pinned = next(c for c in smoke.passed("pinned", report)["checks"] if c["id"] == "pinned")
        if pinned["status"] != "passed":
            raise SystemExit(f"pinned: not run: {pinned['status']}: {pinned['summary']}")
        return {"pinned_s": pinned["duration_s"], "gate_on_s": round(on_s, 2),
                "summary": pinned["summary"]}
    gate(repo, "--runs", "1", "--pinned", "off", env=env)  # untimed: warms the caches
    off_s, _ = gate(repo, "--runs", "1", "--pinned", "off", env=env)
    on_s, report = gate(repo, "--runs", "1", "--pinned", "report", env=env)
    checks = {c["id"]: c for c in report["checks"]}
    suite_s, pinned_s = checks["suite"]["duration_s"], checks["pinned"]["duration_s"]
    return {"suite_run_s": suite_s, "pinned_s": pinned_s,
            "pinned_to_suite_run": round(pinned_s / suite_s, 3), "gate_off_s": round(off_s, 2),
            "gate_on_s": round(on_s, 2), "ratio": round(on_s / off_s, 3),
            "summary": checks["pinned"]["summary"]}


def quick_check(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`gate run --quick` against `gate run` (defaults) on the same bug fix (a code line and a
    test changed), the base's outcomes cached for both (untimed first run); interleaved, best
    of each."""
    repo = work / "quick-check"
    smoke.project(work, "quick-check", quick, files=10, suite_seconds=2.0)
    fixtures.commit(repo, {"benchpkg/__init__.py": "def add(a, b):\n    return b + a\n"},
                    "code")
    if quick:  # `gate run --quick` only (it never runs the base)
        took, ran = gate(repo, "--quick", env=env)
        smoke.passed("quick_check", ran)
        return {"quick_s": round(took, 2), "change_kind": ran["quick"]["change_kind"],
                "quick_ran": ran["quick"]["ran"]}
    env = {**env, "XDG_CACHE_HOME": str(work / "quick-check-cache")}
    gate(repo, "--runs", "1", env=env)  # untimed: the base's outcomes into the cache
    fulls, quicks = [], []
    ran: dict[str, Any] = {}
    for _ in range(2):
        took, report = gate(repo, env=env)
        fulls.append(took)
        took, ran = gate(repo, "--quick", env=env)
        quicks.append(took)
    if report["verdict"] != "pass" or ran["verdict"] != "pass":
        raise SystemExit(f"quick_check: not a pass: {report['verdict']}, {ran['verdict']}")
    f, q = min(fulls), min(quicks)
    return {"gate_s": round(f, 2), "quick_s": round(q, 2), "ratio_quick_to_gate": round(q / f, 3),
            "change_kind": ran["quick"]["change_kind"], "quick_ran": ran["quick"]["ran"]}


def warmed(repo: Path, env: dict[str, str]) -> tuple[float, dict[str, Any]]:
    """Under --quick: `gate run --runs 1` on the shared project, made once for
    scoped_base_tests (its run), floor and base_outcomes (their untimed warm-up): the base's
    outcomes into the shared cache."""
    return smoke.once(("--runs", "1"), lambda: gate(repo, "--runs", "1", env=env))


def side_by_side(repo: Path, env: dict[str, str]) -> tuple[float, dict[str, Any]]:
    """Under --quick: `gate run --parallel` (the default) on the shared project, the base's
    outcomes cached (`warmed`), made once for parallel_runs, floor and base_outcomes, whose
    runs on it would be the same."""
    warmed(repo, env)
    return smoke.once(("--parallel",), lambda: gate(repo, "--parallel", env=env))


def parallel_runs(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """The suite's wall time, three runs side by side against one after another, on this
    2-core machine: for a suite that sleeps (CPU-light) and for one that computes."""
    out: dict[str, Any] = {}
    modes = (("sequential", ("--no-parallel",)), ("parallel", ("--parallel",)))
    # Under --quick: the shared project (its suite sleeps), the runs side by side only.
    for kind, busy in (("sleeping", False),) if quick else (("sleeping", False),
                                                            ("computing", True)):
        repo = work / f"parallel-{kind}"
        smoke.project(work, repo.name, quick, files=10, suite_seconds=2.0, busy=busy)
        durations = {}
        for mode, extra in modes[1:] if quick else modes:
            if quick:  # the same run as base_outcomes' and floor's (bench/smoke.py)
                report = smoke.passed("parallel_runs", side_by_side(repo, env)[1])
            else:
                _, report = gate(repo, *extra, env=env)
            suite = next(c for c in report["checks"] if c["id"] == "suite")
            durations[mode] = suite["duration_s"]
        out[kind] = {**durations, "summary": suite["summary"]}
        if not quick:
            out[kind]["ratio_parallel_to_sequential"] = round(durations["parallel"]
                                                              / durations["sequential"], 3)
    return out


def _install_and_one_run(repo: Path, head: str, env: dict[str, str],
                         tries: int = 2) -> tuple[float, float]:
    """The floor's parts as plain commands: a checkout, a fresh environment and the install
    (as the gate's `install` counts it), and one plain run of the suite (best of `tries`)."""
    with tempfile.TemporaryDirectory() as tmp:
        d, v = Path(tmp, "checkout"), Path(tmp, "venv")
        start = time.perf_counter()
        py = checkout_and_install(repo, head, d, v, env)
        install = time.perf_counter() - start
        one = min(timed([py, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=d, env=env)
                  for _ in range(tries))
        return install, one


def floor(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """`floor_of` a suite that computes for 2 s of CPU, and (full sizes) one of 8 s: the
    gate's fixed costs weigh less in a longer suite."""
    if quick:
        return floor_of(work, env, quick, smoke.SUITE_S)
    return {f"suite_{suite:g}s": floor_of(work, env, quick, suite) for suite in (2.0, 8.0)}


def floor_of(work: Path, env: dict[str, str], quick: bool, suite: float) -> dict[str, Any]:
    """The gate's wall time (defaults: 3 runs side by side; the base's outcomes cached)
    against the physical floor install + 3 x T / cores, T one plain run of the suite, on a
    suite that computes for `suite` s of CPU; the issue's bound is 1.15. Interleaved, best
    of each."""
    name = f"floor-{suite:g}"
    repo = work / name
    _, head = smoke.project(work, name, quick, files=10, suite_seconds=suite, busy=True)
    if quick:  # the shared cache, filled once for all
        warmed(repo, env)
    else:
        env = {**env, "XDG_CACHE_HOME": str(work / f"{name}-cache")}
        gate(repo, "--runs", "1", env=env)  # untimed: fills the cache (the floor's premise)
    gate_times, installs, ones = [], [], []
    summary = ""
    for _ in range(1 if quick else 2):
        took, report = side_by_side(repo, env) if quick else gate(repo, env=env)
        ran = next(c for c in report["checks"] if c["id"] == "suite")
        if ran["status"] != "passed":
            raise SystemExit(f"floor: the suite did not pass: {ran['summary']}")
        gate_times.append(took)
        summary = ran["summary"]
        install, one = _install_and_one_run(repo, head, env, 1 if quick else 2)
        installs.append(install)
        ones.append(one)
    from gate.trials import scheduler
    cores = scheduler.cores()
    g, i, t = min(gate_times), min(installs), min(ones)
    bound = i + 3 * t / cores
    return {"suite_cpu_s": suite, "cores": cores, "install_s": round(i, 2),
            "one_run_s": round(t, 2), "floor_s": round(bound, 2), "gate_s": round(g, 2),
            "ratio_to_floor": round(g / bound, 3), "bound": 1.15, "summary": summary}


def base_outcomes(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """A gate run with the base's outcomes in the cache against one that runs the base's
    suite (--no-cache), one after another and with --parallel; best of 2 interleaved. The
    extra cost of the base's run against one suite run (of the 3)."""
    suite = smoke.SUITE_S if quick else 2.0
    repo = work / "base-outcomes"
    smoke.project(work, "base-outcomes", quick, files=10, suite_seconds=suite)
    if quick:  # the shared cache, filled once for all
        warmed(repo, env)
    else:
        env = {**env, "XDG_CACHE_HOME": str(work / "cache")}  # the gate's cache: the bench's own
        gate(repo, "--runs", "1", env=env)  # untimed: fills the cache and the file cache
    out: dict[str, Any] = {"suite_s": suite}
    modes = (("sequential", ("--no-parallel",)), ("parallel", ("--parallel",)))
    for mode, extra in modes[1:] if quick else modes:
        cached, uncached, one_run = [], [], []
        for _ in range(1 if quick else 2):
            took, report = side_by_side(repo, env) if quick else gate(repo, *extra, env=env)
            cached.append(took)
            if quick:
                smoke.passed("base_outcomes", report)
            took, report = gate(repo, "--no-cache", *extra, env=env)
            uncached.append(took)
            ran = next(c for c in report["checks"] if c["id"] == "suite")
            if ran["status"] != "passed":  # a number from a run that broke would mean nothing
                raise SystemExit(f"base_outcomes: the suite did not pass: {ran['summary']}")
            one_run.append(ran["duration_s"] / (1 if mode == "parallel" else 3))
        c, u = min(cached), min(uncached)
        out[mode] = {"cached_s": round(c, 2), "uncached_s": round(u, 2),
                     "ratio_uncached_to_cached": round(u / c, 3),
                     "base_run_in_suite_runs": round((u - c) / min(one_run), 2)}
    return out


def sharded(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """One unsharded gate run against 2 shards side by side (separate processes, each with
    its own checkout and environment, as 2 runners of a matrix) and their merge, on a suite
    of tests that compute: wall time, and the parts that do not shrink with N (install,
    merge) for the figure on paper at N = 20."""
    tests, seconds = (smoke.FILES, smoke.SUITE_S) if quick else (200, 30.0)
    repo = work / "shards"
    smoke.project(work, "shards", quick, files=tests, suite_seconds=seconds, busy=True)
    common = ("--no-cache",)  # each shard one runner: its runs one after another
    # Under --quick: the shards and their merge only, whose verdict must be a pass.
    whole_s, whole = (0.0, {}) if quick else gate(repo, *common, env=env)
    wanted = whole.get("verdict", "pass")
    start = time.perf_counter()
    reports = [repo.parent / f"shard-{i}.json" for i in (1, 2)]
    shards = [subprocess.Popen(
        [PYTHON, "-m", "gate", "run", "--repo", str(repo), "--base", "main", "--head", "change",
         "--format", "json", "--report", str(path), "--shard", f"{i}/2", *common],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for i, path in enumerate(reports, 1)]
    codes = [p.wait() for p in shards]
    shards_s = time.perf_counter() - start
    merged_report = repo.parent / "merged.json"
    merge_s = timed([PYTHON, "-m", "gate", "merge", "--repo", str(repo), "--format", "json",
                     "--report", str(merged_report), *map(str, reports)], env=env)
    merged = json.loads(merged_report.read_text())
    if codes != [0, 0] or merged["verdict"] != wanted:
        raise SystemExit(f"sharded: shards exited {codes}; merged {merged['verdict']}, "
                         f"unsharded {wanted}")
    suite = next(c for c in merged["checks"] if c["id"] == "suite")
    if quick:
        return {"tests": tests + 1, "suite_seconds": seconds, "two_shards_s": round(shards_s, 2),
                "merge_s": round(merge_s, 2), "verdict": merged["verdict"],
                "summary": suite["summary"]}
    checks = {c["id"]: c for c in whole["checks"]}
    install_s = checks["install"]["duration_s"]
    return {"tests": tests + 1, "suite_seconds": seconds, "unsharded_s": round(whole_s, 2),
            "two_shards_s": round(shards_s, 2), "merge_s": round(merge_s, 2),
            "ratio_sharded_to_unsharded": round((shards_s + merge_s) / whole_s, 3),
            "install_s": round(install_s, 2), "verdict": merged["verdict"],
            "summary": suite["summary"]}


def environment_creation(work: Path, env: dict[str, str], quick: bool) -> dict[str, Any]:
    """A fresh environment and the install of `TWENTY` (from a wheelhouse, no cache) with
    venv and pip against the same with uv (the gate's); under --quick, uv only, of pytest from
    the bench's own wheelhouse."""
    packages = ("pytest",) if quick else TWENTY
    wheels = (Path(env["PIP_FIND_LINKS"]) if quick
              else fixtures.wheelhouse(work / "wheels20", packages))
    count = len(list(wheels.glob("*.whl")))
    reqs = work / "requirements.txt"
    reqs.write_text("\n".join(packages) + "\n")
    offline = ["--no-index", "--find-links", str(wheels), "-r", str(reqs)]
    result: dict[str, Any] = {"wheels": count}
    if not quick:
        pip_s = timed([PYTHON, "-m", "venv", str(work / "venv-pip")]) + timed(
            [str(work / "venv-pip" / "bin" / "python"), "-m", "pip", "install", "-q",
             "--disable-pip-version-check", "--no-cache-dir", *offline])
        result["venv_pip_s"] = round(pip_s, 2)
    uv = shutil.which("uv") or str(Path(PYTHON).parent / "uv")
    if not os.path.exists(uv):
        subprocess.run([PYTHON, "-m", "pip", "install", "-q", "uv"], check=True)
    cold = {**os.environ, "UV_CACHE_DIR": str(work / "uv-cache")}
    uv_s = timed([uv, "venv", "-q", str(work / "venv-uv")], env=cold) + timed(
        [uv, "pip", "install", "-q", "--python", str(work / "venv-uv" / "bin" / "python"),
         *offline], env=cold)
    result["uv_s"] = round(uv_s, 2)
    if not quick:
        result["ratio_uv_to_pip"] = round(uv_s / pip_s, 3)
    return result


def memory(work: Path, quick: bool) -> dict[str, Any]:
    size = 100_000_000 if quick else 1_000_000_000
    repo = work / "flood"
    repo.mkdir()
    fixtures.git(repo, "init", "-q", "-b", "main")
    fixtures.commit(repo, {"README.md": "flood\n"}, "base")
    fixtures.git(repo, "checkout", "-q", "-b", "change")
    fixtures.commit(repo, {"README.md": "flood!\n"}, "head")
    flood = f"head -c {size} /dev/zero | tr '\\0' x"
    code = ("import resource, subprocess, sys\n"
            f"subprocess.run([sys.executable, '-m', 'gate', 'run', '--repo', {str(repo)!r},"
            " '--base', 'main', '--head', 'change', '--install', 'true', '--runs', '1',"
            f" '--test', {flood!r}, '--format', 'json'], stdout=subprocess.DEVNULL,"
            " stderr=subprocess.DEVNULL)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    start = time.perf_counter()
    out = subprocess.run([PYTHON, "-c", code], check=True, capture_output=True, text=True)
    return {"printed_bytes": size, "peak_rss_mb": round(int(out.stdout) / 1024, 1),
            "seconds": round(time.perf_counter() - start, 2)}


def scan_throughput(work: Path, quick: bool) -> dict[str, Any]:
    """`gate scan` of synthetic diffs against `git diff` of the same refs (bench/scan.py)."""
    rows = {}
    for lines in (10_000,) if quick else (10_000, 100_000, 1_000_000):
        (work / f"scan-{lines}").mkdir()
        files, scan_s, diff_s, findings = scan.measure(work / f"scan-{lines}", lines, False)
        rows[str(lines)] = {"files": files, "findings": findings, "scan_s": round(scan_s, 3),
                            "git_diff_s": round(diff_s, 3), "ratio": round(scan_s / diff_s, 1),
                            "us_per_line": round(scan_s / lines * 1e6, 1)}
    return rows


def latency(work: Path, quick: bool) -> dict[str, Any]:
    """The pre-commit hook on a typical commit (bench/hook_latency.py's repository), against
    Python's own start-up and the import of the command line (best of 5; of 1 under --quick,
    with no warm-up)."""
    (work / "latency").mkdir()
    repo = hook_latency.build(work / "latency")
    hook = [str(Path(PYTHON).parent / "gate"), "hook", "pre-commit"]
    tries = 1 if quick else 5
    if not quick:
        timed_any(hook, cwd=repo)  # warm the file cache
    hook_s = min(timed_any(hook, cwd=repo) for _ in range(tries))
    python_s = min(timed([PYTHON, "-c", "pass"]) for _ in range(tries))
    import_s = min(timed([PYTHON, "-c", "import gate.cli"]) for _ in range(tries))
    return {"hook_pre_commit_s": round(hook_s, 3), "python_startup_s": round(python_s, 3),
            "import_gate_cli_s": round(import_s, 3),
            "startup_share": round(import_s / hook_s, 3)}


def timed_any(argv: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, two at a time: a smoke test (figures not comparable)")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="run only this measurement (repeatable); results.json is not "
                             "written")
    args = parser.parse_args()
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform()},
        "quick": args.quick,
    }
    with tempfile.TemporaryDirectory(prefix="gate-bench-") as tmp:
        work = Path(tmp)
        wheels = fixtures.wheelhouse(work / "wheels", ("pytest", "setuptools", "wheel"))
        # The plain commands write bytecode, as a CI job's do (a shell may have turned it
        # off: then the floor's runs would compile pytest at every start, as the gate's
        # did before its environments came compiled).
        plain = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env = {**plain, "PIP_FIND_LINKS": str(wheels), "PIP_NO_INDEX": "1",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        if args.quick:  # one project and one cache for all (bench/smoke.py)
            env = smoke.prepare(work, env)
        steps = [
            ("overhead", lambda: overhead(work, env, args.quick)),
            ("isolation", lambda: isolation_cost(work, env, args.quick)),
            ("sealed", lambda: sealed_cost(work, env, args.quick)),
            ("varied", lambda: varied_cost(work, env, args.quick)),
            ("caches", lambda: cache_cost(work, env, args.quick)),
            ("scoped_base_tests", lambda: scoped_base_tests(work, env, args.quick)),
            ("parallel_runs", lambda: parallel_runs(work, env, args.quick)),
            ("floor", lambda: floor(work, env, args.quick)),
            ("pinned", lambda: pinned_cost(work, env, args.quick)),
            ("quick_check", lambda: quick_check(work, env, args.quick)),
            ("base_outcomes", lambda: base_outcomes(work, env, args.quick)),
            ("sharded", lambda: sharded(work, env, args.quick)),
            ("environment_creation", lambda: environment_creation(work, env, args.quick)),
            ("memory", lambda: memory(work, args.quick)),
            ("scan_throughput", lambda: scan_throughput(work, args.quick)),
            ("latency", lambda: latency(work, args.quick)),
            ("evidence", lambda: evidence_cost.evidence_cost(work, args.quick)),
            ("go_witness", lambda: go_witness_cost.go_witness_cost(work, args.quick)),
        ]
        if not args.quick:  # npm and the registry: not in the smoke test
            steps.append(("node_witness", lambda: node_witness_cost.node_witness_cost(work)))
        chosen = [(n, step) for n, step in steps if not args.only or n in args.only]
        # --quick is a smoke test: two measurements at a time, in smoke.ORDER, whose figures
        # then say only that the measurement still runs. A full run takes them one at a time.
        started = sorted(chosen, key=lambda c: smoke.ORDER.index(c[0])) if args.quick else chosen
        with ThreadPoolExecutor(max_workers=2 if args.quick else 1) as pool:
            futures = {name: pool.submit(step) for name, step in started}
            running = {name: futures[name] for name, _ in chosen}  # printed in the table's order
            for name, future in running.items():
                results[name] = future.result()
                print(f"{name:22} {json.dumps(results[name])}", flush=True)
    if not args.only:
        (HERE / "results.json").write_text(json.dumps(results, indent=2) + "\n")
        print(f"written: {HERE / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
