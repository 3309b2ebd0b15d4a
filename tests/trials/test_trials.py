"""Trials (gate/trials/): the orders a runner is asked for, the gate's order plugin on real
pytest, and whole gate runs: an order-dependent pair the head adds is named as such, with the
order that fails it; a test that fails once and passes when its order is repeated stays flaky;
runs side by side (the default) each have a TMPDIR and, offline, a loopback of their own."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import PYPROJECT, project

from gate import cli
from gate.outcomes.runners import pytest as pytest_runner
from gate.trials import order
from gate.trials.order import Order

# --- orders, as each runner takes them --------------------------------------------------------


def test_run_one_keeps_the_projects_order_and_the_others_vary() -> None:
    assert [order.for_run(n, 40) for n in (1, 2, 3, 4)] == [
        Order(), Order("reversed"), Order("shuffled", 40), Order("shuffled", 41)]
    assert str(Order("shuffled", 7)) == "shuffled order, seed 7"


def test_the_seed_is_the_same_for_one_head() -> None:
    sha = "9f3a0c1d" + "0" * 32
    assert order.seed_of(sha) == int("9f3a0c1d", 16) % 100_000 == order.seed_of(sha)


def test_each_runner_is_asked_for_the_order_it_can_take(tmp_path: Path) -> None:
    env = {"GOFLAGS": "-mod=mod"}
    pytest_run = order.apply(Order("reversed"), "pytest -q", str(tmp_path), env)
    assert (pytest_run.command, pytest_run.order) == ("pytest -q", Order("reversed"))
    assert pytest_run.env["GATE_ORDER"] == "reversed"
    assert pytest_run.env["PYTEST_PLUGINS"] == order.PLUGIN
    jest = order.apply(Order("reversed"), "npx jest", str(tmp_path), {})
    assert (jest.command, jest.order) == ("npx jest --randomize --seed=1", Order("shuffled", 1))
    vitest = order.apply(Order("shuffled", 5), "vitest run", str(tmp_path), {})
    assert vitest.command == "vitest run --sequence.shuffle --sequence.seed=5"
    go = order.apply(Order("shuffled", 5), "go test ./...", str(tmp_path), env)
    assert (go.command, go.env["GOFLAGS"]) == ("go test ./...", "-mod=mod -shuffle=5")
    cargo = order.apply(Order("shuffled", 5), "cargo test", str(tmp_path), env)
    assert (cargo.command, cargo.env, cargo.order) == ("cargo test", env, order.PROJECT)
    assert order.apply(order.PROJECT, "pytest", str(tmp_path), env).env == env


# --- the gate's order plugin, on real pytest ------------------------------------------------

ORDER_LOG = """\
import os


def _log(name):
    with open(os.environ["ORDER_LOG"], "a") as f:
        f.write(name + "\\n")
"""


def _pytest_order(tmp_path: Path, how: str) -> list[str]:
    (tmp_path / "log.py").write_text(ORDER_LOG)
    for f in ("a", "b", "c"):
        (tmp_path / f"test_{f}.py").write_text("from log import _log\n\n" + "".join(
            f"\ndef test_{f}{i}():\n    _log('{f}{i}')\n" for i in range(3)))
    log = tmp_path / "order.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "ORDER_LOG": str(log), "PYTHONPATH": f"{pytest_runner.PLUGIN_DIR}",
           "PYTEST_PLUGINS": order.PLUGIN, "GATE_ORDER": how}
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env,
                   check=True, capture_output=True)
    return log.read_text().split()


def test_the_order_plugin_reverses_and_shuffles_by_file(tmp_path: Path) -> None:
    own = _pytest_order(tmp_path, "")
    assert own == ["a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1", "c2"]
    assert _pytest_order(tmp_path, "reversed") == own[::-1]
    shuffled = _pytest_order(tmp_path, "shuffled:3")
    assert shuffled == _pytest_order(tmp_path, "shuffled:3")  # the seed reproduces it
    assert sorted(shuffled) == own and shuffled not in (own, own[::-1])
    files = [t[0] for t in shuffled]  # a file's tests stay together (module fixtures once)
    assert files == sorted(files, key=files.index)
    assert _pytest_order(tmp_path, "shuffled:junk") == own


INNER = """\
pytest_plugins = ["pytester"]


def test_inner_sessions_keep_their_order(pytester):
    pytester.makepyfile("def test_1():\\n    pass\\n\\ndef test_2():\\n    pass\\n")
    for run in (pytester.runpytest, pytester.runpytest_subprocess):
        run("-v").stdout.fnmatch_lines(["*test_1 PASSED*", "*test_2 PASSED*"])


def test_z():
    pass
"""


def test_a_session_a_test_starts_keeps_the_order_it_asked_for(tmp_path: Path) -> None:
    """pytest-dev/pytest-repeat d46b6ab: its tests match an inner session's lines in order;
    reversed, they failed under the gate (an honest commit's fail). Only the command's own
    session, the one that writes the gate's report, is reordered."""
    (tmp_path / "test_inner.py").write_text(INNER)
    report = tmp_path / "report.xml"
    env = {**os.environ, "PYTHONPATH": pytest_runner.PLUGIN_DIR, "PYTEST_PLUGINS": order.PLUGIN,
           "GATE_ORDER": "reversed", "GATE_JUNIT": str(report),
           "PYTEST_ADDOPTS": f"--junitxml={report}"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    ran = [line.split("::")[1].split()[0] for line in done.stdout.splitlines()
           if line.startswith("test_inner.py::")]
    assert ran == ["test_z", "test_inner_sessions_keep_their_order"]  # the own: reversed


# --- whole gate runs -------------------------------------------------------------------------

PAIR = """\
STATE = []


def test_first():
    STATE.append(1)


def test_second():
    assert STATE == [1]
"""

# the cheat's second form: a new test that leaves the package changed, which only an
# existing test run after it sees (in reversed order, test_add runs after it)
POLLUTER = """\
import calc


def test_z_speedup():
    calc.add.__code__ = (lambda a, b: 0).__code__
    assert calc.sub(2, 1) == 1
"""

HONEST_PAIR = """\
def _state():
    return [1]


def test_first():
    assert _state() == [1]


def test_second():
    assert _state() == [1]
"""

FIXED_TMP = """\
import os
import tempfile
import time


def test_holds_a_fixed_name_in_tmp():
    path = os.path.join(tempfile.gettempdir(), "gate-trials-fixed.lock")
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    time.sleep(1)
    os.close(fd)
    os.unlink(path)
"""

FIXED_PORT = """\
import socket
import time


def test_serves_on_a_fixed_port():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 47123))
        server.listen(1)
        with socket.create_connection(("127.0.0.1", 47123), timeout=5):
            time.sleep(1)
"""

# fails in the second pytest session in its checkout only (runs one after another share one):
# in a run in reversed order, which passes when repeated
ONCE = """\
import os


def test_once():
    path = os.path.join(os.path.dirname(__file__), ".count")
    n = int(open(path).read()) + 1 if os.path.exists(path) else 1
    with open(path, "w") as f:
        f.write(str(n))
    assert n != 2, "the second session"
"""


def _gate(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    out = repo.parent / f"report-{len(list(repo.parent.glob('report-*')))}.json"
    code = cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change",
                     "--format", "json", "--report", str(out), *args])
    return code, json.loads(out.read_text())


def _suite(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "suite")


@pytest.fixture(scope="module")
def offline(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """pip from the wheelhouse, git without the user's config, the cache in a new home."""
    home = tmp_path_factory.mktemp("trials-home")
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Test\n\temail = test@example.com\n"
        "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    with pytest.MonkeyPatch.context() as mp:
        for name, value in {"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1",
                            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "HOME": str(home),
                            "XDG_CACHE_HOME": str(home / ".cache"),
                            "GIT_CONFIG_NOSYSTEM": "1",
                            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig")}.items():
            mp.setenv(name, value)
        yield home


@pytest.fixture(scope="module")
def cheat(offline: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("cheat")
    repo, _, _ = make_change(tmp / "r", project(), {"tests/test_state.py": PAIR,
                                                     "tests/test_zz.py": POLLUTER})
    return _gate(repo.path)


@pytest.fixture(scope="module")
def honest(offline: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("honest")
    base = project(**{"pyproject.toml": PYPROJECT + '\n[tool.gate]\nnetwork = "off"\n'})
    repo, _, _ = make_change(tmp / "r", base, {"tests/test_state.py": HONEST_PAIR,
                                               "tests/test_tmp.py": FIXED_TMP,
                                               "tests/test_port.py": FIXED_PORT})
    return _gate(repo.path)


@pytest.mark.slow
def test_an_order_dependent_pair_the_head_adds_is_named_with_its_order(
        cheat: tuple[int, dict[str, Any]]) -> None:
    code, report = cheat
    suite = _suite(report)
    assert (suite["status"], report["verdict"], code) == ("failed", "fail", 1)
    found = {f["path"]: f for f in suite["findings"]}
    assert sorted(found) == ["tests/test_calc.py", "tests/test_state.py"]
    second = found["tests/test_state.py"]
    assert (second["line"], second["rule"], second["severity"]) == (8, "test-failed", "error")
    assert second["message"].startswith(
        "order-dependent: tests/test_state.py::test_second fails in reversed order and passes "
        "in the project's order, also when both are repeated in fresh checkouts (failed in ")


@pytest.mark.slow
def test_a_new_test_that_breaks_an_existing_one_after_it_is_named_at_the_broken_one(
        cheat: tuple[int, dict[str, Any]]) -> None:
    suite = _suite(cheat[1])
    add = next(f for f in suite["findings"] if f["path"] == "tests/test_calc.py")
    assert add["line"] == 4
    assert add["message"].startswith(
        "order-dependent: tests/test_calc.py::test_add fails in reversed order")
    assert "(run 2 (reversed order): exit 1" in suite["summary"]


@pytest.mark.slow
def test_honest_tests_in_any_order_with_fixed_names_pass_side_by_side(
        honest: tuple[int, dict[str, Any]]) -> None:
    """Each run side by side has its own TMPDIR and (offline) its own loopback: a fixed file
    name in the temporary directory and a fixed port collide with no other run."""
    code, report = honest
    suite = _suite(report)
    assert (suite["status"], suite["findings"]) == ("passed", [])
    seed = order.seed_of(report["head"])  # the summary says how to run them again
    assert suite["summary"] == (
        f"3 of 3 runs passed, 6/6 tests (orders: project, reversed, shuffled seed {seed})")
    assert (report["verdict"], code) == ("pass", 0)


@pytest.mark.slow
def test_a_test_that_passes_when_its_order_is_repeated_stays_flaky(
        offline: Path, tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {
        "tests/test_once.py": ONCE})
    # its state crosses runs: one after another and without the boundary, inside which each
    # run starts clean
    code, report = _gate(repo.path, "--no-parallel", "--isolation", "off")
    suite = _suite(report)
    [finding] = suite["findings"]
    assert finding["message"] == (
        "flaky: tests/test_once.py::test_once failed in 1 of 3 runs (passed 2 of 3): "
        "AssertionError: the second session [flaky: passed in some runs at head]")
    assert suite["summary"] == ("2 of 3 runs passed, 2/3 tests (run 2 (reversed order): exit 1);"
                                " baseline: 1 flaky, passing in some runs")
    assert code == 1


# --- the trial kinds `pinned` asks for, on the scheduler ---------------------------------------

KIND_BASE = {"calc.py": "def add(a, b):\n    return a + b\n",
             "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                                   "    assert add(2, 3) == 5\n"}
KIND_HEAD = {"calc.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n"
                        "    return a * b\n",
             "tests/test_mul.py": "from calc import mul\n\n\ndef test_mul():\n"
                                  "    assert mul(2, 3) == 6\n"}


def _workspaces(tmp_path: Path) -> tuple[Any, Any, str, str]:
    from gate.execution import workspace
    from gate.execution.environment import clean_env
    from gate.execution.run_workspace import Workspace

    repo, base, head = make_change(tmp_path / "r", KIND_BASE, KIND_HEAD)
    scratch = tmp_path / "root" / "scratch"
    scratch.mkdir(parents=True)
    env = {**clean_env(), "PYTHONPATH": "."}

    def at(sha: str, name: str) -> Any:
        path = workspace.checkout(str(repo.path), sha, str(tmp_path / "root" / name))
        return Workspace(path, str(scratch), env, 120)
    return at(base, "base"), at(head, "head"), str(repo.path), head


def test_head_tests_over_base_and_mutants_run_side_by_side_and_leave_no_trace(
        tmp_path: Path) -> None:
    from gate.trials import kinds, scheduler

    base_ws, head_ws, repo, head = _workspaces(tmp_path)
    command = f"{sys.executable} -m pytest -q"
    over_base = kinds.head_tests_over_base(
        base_ws, command, {"tests/test_mul.py": KIND_HEAD["tests/test_mul.py"].encode()})
    spaces = kinds.checkouts(repo, head, head_ws, str(tmp_path / "root"), 3, "mutant")
    mutated = KIND_HEAD["calc.py"].replace("a * b", "a + b").encode()
    survivor = KIND_HEAD["calc.py"].replace("a * b", "b * a").encode()
    mutants = [kinds.mutant(spaces[1], command, "calc.py", mutated, ["tests/test_mul.py"],
                            "mutant-1"),
               kinds.mutant(spaces[2], command, "calc.py", survivor, ["tests/test_mul.py"],
                            "mutant-2")]
    assert over_base.command == f"{command} tests/test_mul.py"
    outcomes = scheduler.run([over_base, *mutants], at_once=3)
    assert [o.trial.name for o in outcomes] == ["head-tests-over-base", "mutant-1", "mutant-2"]
    ran = [(o.run.passed, [c.name for c in o.run.failed_tests]) for o in outcomes]
    # at base, test_mul.py cannot import mul: a collection error, named by its module
    assert ran == [(False, ["tests/test_mul.py"]),
                   (False, ["tests/test_mul.py::test_mul"]), (True, [])]
    # the files put over are put back: the base has no test_mul.py, the head its own mul
    assert not (Path(base_ws.checkout) / "tests" / "test_mul.py").exists()
    for space in spaces:
        assert (Path(space.checkout) / "calc.py").read_text() == KIND_HEAD["calc.py"]
    # each trial had its own temporary directory, beside the run's scratch
    assert sorted(p.name for p in (tmp_path / "root").iterdir() if p.name.startswith("tmp-")) == [
        "tmp-head-tests-over-base", "tmp-mutant-1", "tmp-mutant-2"]


# --- Jest and Vitest take the order -----------------------------------------------------------

JEST_TESTS = """\
const fs = require('node:fs');
for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) {
  test(n, () => fs.appendFileSync(process.env.ORDER_LOG, n + '\\n'));
}
"""

VITEST_TESTS = """\
import fs from 'node:fs';
import { test } from 'vitest';
for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) {
  test(n, () => fs.appendFileSync(process.env.ORDER_LOG, n + '\\n'));
}
"""


@pytest.fixture(scope="module")
def js_runners(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jest and vitest from the npm registry, once for this module."""
    root = tmp_path_factory.mktemp("js-order")
    (root / "package.json").write_text('{"name": "order", "version": "1.0.0", "private": true}')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "--cache", str(tmp_path_factory.mktemp("npm-cache")), "jest@29", "vitest@3"],
                   cwd=root, check=True, stdout=subprocess.DEVNULL)
    (root / "jest").mkdir()
    (root / "jest" / "order.test.js").write_text(JEST_TESTS)
    (root / "vitest").mkdir()
    (root / "vitest" / "order.test.mjs").write_text(VITEST_TESTS)
    return root


def _js_order(root: Path, runner: str, command: str, how: Order) -> tuple[list[str], Order]:
    from gate.execution.environment import clean_env
    from gate.execution.run_workspace import Workspace
    from gate.trials import scheduler
    from gate.trials.trial import Trial

    log = root / f"{runner}.log"
    log.unlink(missing_ok=True)
    scratch = root / f"{runner}-scratch"
    scratch.mkdir(exist_ok=True)
    ws = Workspace(str(root / runner), str(scratch), {**clean_env(), "ORDER_LOG": str(log)}, 180)
    done = scheduler.run_one(Trial(f"{runner}-order", ws, command, order=how))
    assert done.run.passed, done.run.completed.output
    return log.read_text().split(), done.order


@pytest.mark.slow  # jest and vitest from the npm registry
@pytest.mark.parametrize(("runner", "command"), [("jest", "npx jest"),
                                                 ("vitest", "npx vitest run")])
def test_jest_and_vitest_run_shuffled_by_the_seed(js_runners: Path, runner: str,
                                                  command: str) -> None:
    own, kept = _js_order(js_runners, runner, command, order.PROJECT)
    assert (own, kept) == (list("abcdef"), order.PROJECT)
    shuffled, used = _js_order(js_runners, runner, command, Order("shuffled", 12345))
    assert used == Order("shuffled", 12345)
    assert sorted(shuffled) == own and shuffled != own
    assert _js_order(js_runners, runner, command, Order("shuffled", 12345))[0] == shuffled
    # they cannot reverse: run 2's order is a shuffle for them
    assert _js_order(js_runners, runner, command, Order("reversed"))[1] == Order("shuffled", 1)


def test_an_order_dependent_test_is_its_own_row_of_the_tests_to_look_at() -> None:
    from gate.models import CheckResult, Finding, Report
    from gate.report.tests_table import rows

    dependent = Finding("tests/test_s.py", 8, "test-failed",
                        "order-dependent: tests/test_s.py::test_second fails in reversed order "
                        "and passes in the project's order, also when both are repeated in "
                        "fresh checkouts (failed in 1 of 3 runs)", "error")
    failing = Finding("tests/test_x.py", 3, "test-failed",
                      "tests/test_x.py::test_x failed in 3 of 3 runs", "error")
    report = Report("fail", "b" * 40, "a" * 40, 1.0, (CheckResult(
        "suite", "The whole suite passes every run", "failed", True, "1 of 3 runs passed",
        findings=(dependent, failing)),))
    assert [(r.kind, r.finding.path) for r in rows(report)] == [
        ("order-dependent", "tests/test_s.py"), ("failing", "tests/test_x.py")]
