"""Whole gate runs whose third run is cut in pieces by test file across the cores, and whose
base-tests reads the base's unchanged test files' outcomes from those pieces (issue 26): the
verdict and every check's result are the same as with the runs one after another; a changed
test file that patches the code for the others cannot lend them its patch through the reuse;
a collection the pieces do not reproduce is run again whole (real git, pytest, bubblewrap)."""
from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import isolated_home, make_change
from helpers.pyproject_fixture import project

from gate import cli
from gate.execution import isolation

pytestmark = pytest.mark.slow

CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
TESTS = {f"tests/test_{name}.py": f"from calc import add, mul\n\n\ndef test_{name}():\n"
                                  f"    assert {check}\n\n\ndef test_{name}_again():\n"
                                  f"    assert {check}\n"
         for name, check in (("add", "add(2, 3) == 5"), ("mul", "mul(2, 3) == 6"),
                             ("both", "add(1, 1) == mul(1, 2)"), ("zero", "mul(0, 9) == 0"))}
BASE = project(**{"calc/__init__.py": CALC, "tests/test_calc.py": None}, **TESTS)
# An honest change: add is refactored, and its test file gains a test.
HONEST = {"calc/__init__.py": CALC.replace("return a + b", "return sum((a, b))"),
          "tests/test_add.py": TESTS["tests/test_add.py"]
          + "\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n"}
# mul is broken, and the head's test_add.py patches it back for every test of the session:
# whole, every run passes; the base's test_mul, test_both and test_zero fail on the head code.
PATCHED = {"calc/__init__.py": CALC.replace("a * b", "a * b + 1"),
           "tests/test_add.py": "import calc\n\ncalc.mul = lambda a, b: a * b\n\n\n"
                                "def test_add():\n    assert calc.add(2, 3) == 5\n"}
# A change of code alone: every test file is the base's, so run 3's pieces hold every test and
# its rest would collect nothing. With a doctest in the code (collected by --doctest-modules
# outside any test file), the rest is what runs it.
CODE_ONLY = {"calc/__init__.py": HONEST["calc/__init__.py"]}
DOCTEST = '\n\ndef double(a):\n    """\n    >>> double(2)\n    4\n    """\n    return a * 2\n'
DOCTESTS = {**BASE, "calc/__init__.py": CALC + DOCTEST,
            "pyproject.toml": str(BASE["pyproject.toml"])
            + '\n[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n'}
# The project's own conftest runs one test of the files it is given by name: pieces that name
# their files collect less than the whole run, which the gate sees and runs again whole.
PICKY = "def pytest_collection_modifyitems(config, items):\n" \
        "    if any(a.endswith('.py') for a in config.args):\n        del items[1:]\n"

# markdown-it-py's shape: a benchmarks directory whose conftest.py needs a plugin the tests do
# not install (pytest stops at collection from the root), and tox running `pytest tests/`.
BENCHMARKS = {"benchmarking/conftest.py": "def pytest_benchmark_update_machine_info(config):\n"
                                          "    pass\n",
              "tox.ini": "[testenv]\ncommands = pytest {posargs:tests/}\n"}


def _gate(root: Path, base: dict[str, str | None], head: dict[str, str | None], *args: str,
          ) -> tuple[dict[str, Any], list[str]]:
    repo, _, _ = make_change(root / "r", base, head)
    out, logs = root / "report.json", root / "logs"
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--report", str(out), "--logs", str(logs), *args])
    return json.loads(out.read_text()), sorted(p.split("-", 1)[1] for p in os.listdir(logs))


@pytest.fixture(scope="module")
def runs(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory,
         ) -> Iterator[dict[str, tuple[dict[str, Any], list[str]]]]:
    boundary = isolation.choose("auto")
    if boundary.bwrap is None or not boundary.overlays or len(os.sched_getaffinity(0)) < 2:
        pytest.fail("the test needs bubblewrap with overlays and two cores")
    tmp = tmp_path_factory.mktemp("pieces")
    with isolated_home(tmp / "home", wheelhouse):
        yield {"honest": _gate(tmp / "honest", BASE, HONEST),
               "honest-sequential": _gate(tmp / "sequential", BASE, HONEST, "--no-parallel"),
               "patched": _gate(tmp / "patched", BASE, PATCHED),
               "patched-sequential": _gate(tmp / "patched-seq", BASE, PATCHED, "--no-parallel"),
               "picky": _gate(tmp / "picky", {**BASE, "conftest.py": PICKY}, HONEST),
               "code-only": _gate(tmp / "code-only", BASE, CODE_ONLY),
               "code-only-sequential": _gate(tmp / "code-seq", BASE, CODE_ONLY, "--no-parallel"),
               "doctest": _gate(tmp / "doctest", DOCTESTS, {
                   "calc/__init__.py": CODE_ONLY["calc/__init__.py"] + DOCTEST}),
               "benchmarks": _gate(tmp / "benchmarks", {**BASE, **BENCHMARKS}, HONEST)}


def _checks(report: dict[str, Any]) -> dict[str, tuple[str, str, list[Any]]]:
    """Each check's result but its duration; the seed (from the head's SHA) said as SEED, and
    pinned's time budget (a multiple of the suite's time in that run) as BUDGET."""
    return {c["id"]: (c["status"], re.sub(r"budget of [\d.]+ s", "budget of BUDGET", re.sub(
        r"seed \d+", "SEED", c["summary"])), c["findings"]) for c in report["checks"]}


def test_an_honest_change_reads_the_same_cut_in_pieces_as_one_run_after_another(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    report, logs = runs["honest"]
    assert report["verdict"] == "pass"
    assert _checks(report) == _checks(runs["honest-sequential"][0])
    assert _checks(report)["base-tests"][1] == (
        "4 base test file(s) (tests/test_add.py, tests/test_both.py, tests/test_mul.py, "
        "tests/test_zero.py) pass on the head code")
    # Runs 1 and 2 whole; run 3 cut: the three unchanged files in two pieces, the rest (the
    # changed test file) in a third; base-tests ran only the base's test_add.py itself.
    assert [n for n in logs if n.startswith(("suite", "base-tests"))] == [
        "base-tests-own.log", "suite-side-by-side-1.log", "suite-side-by-side-2.log",
        "suite-side-by-side-3-part-1.log", "suite-side-by-side-3-part-2.log",
        "suite-side-by-side-3-rest.log"]


def test_a_changed_test_file_that_patches_the_code_lends_its_patch_to_no_reused_outcome(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    report, logs = runs["patched"]
    checks = _checks(report)
    assert report["verdict"] == "needs-review"
    status, summary, findings = checks["base-tests"]
    assert status == "failed" and summary.startswith("4 base test file(s) (tests/test_add.py")
    assert {f["path"] for f in findings} == {"tests/test_mul.py", "tests/test_both.py",
                                             "tests/test_zero.py"}
    assert "base-tests.log" in logs  # the pieces did not pass alone: the whole run decided
    # Without the patch run 3's pieces fail; made again whole, it passes, as runs 1 and 2:
    # the suite says what it says one run after another.
    assert "suite-side-by-side-3.log" in logs
    assert checks["suite"] == _checks(runs["patched-sequential"][0])["suite"]


def test_pieces_that_collect_less_than_the_whole_run_are_run_again_whole(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    report, logs = runs["picky"]
    assert report["verdict"] == "pass"
    assert _checks(report)["suite"][1].startswith("3 of 3 runs passed, 9/9 tests")
    assert "suite-side-by-side-3.log" in logs and "base-tests.log" in logs


def test_a_rest_that_would_collect_nothing_is_not_started(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    """A change of code alone: run 1 ran every test in the base's test files, which run 3's
    pieces hold, so the rest piece (a pytest start that collects nothing) is not started, and
    base-tests reads every file from the pieces; the result is the same as one run after
    another."""
    report, logs = runs["code-only"]
    assert report["verdict"] == "pass"
    assert _checks(report) == _checks(runs["code-only-sequential"][0])
    assert [n for n in logs if n.startswith(("suite", "base-tests"))] == [
        "suite-side-by-side-1.log", "suite-side-by-side-2.log",
        "suite-side-by-side-3-part-1.log", "suite-side-by-side-3-part-2.log"]


def test_a_rest_that_holds_a_test_of_run_1_still_runs(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    """The same change where pytest also collects a doctest from the code: run 1 ran a test
    outside the test files, so the rest runs, and run 3 counts the doctest as runs 1 and 2 do."""
    report, logs = runs["doctest"]
    assert report["verdict"] == "pass"
    assert _checks(report)["suite"][1].startswith("3 of 3 runs passed, 9/9 tests")
    assert "suite-side-by-side-3-rest.log" in logs
    assert "suite-side-by-side-3.log" not in logs  # the pieces and the rest ran run 1's tests


def test_the_detected_command_runs_the_directories_tox_names_and_is_still_cut(
        runs: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    """No [tool.gate]: pytest gets tox's tests/ as its testpaths, so benchmarking/ is not
    collected, and the command names no path of its own: run 3 is cut as with no tox.ini."""
    report, logs = runs["benchmarks"]
    assert report["verdict"] == "pass", report
    assert _checks(report)["suite"][1].startswith("3 of 3 runs passed, 9/9 tests")
    assert [n for n in logs if n.startswith(("suite", "base-tests"))] == [
        "base-tests-own.log", "suite-side-by-side-1.log", "suite-side-by-side-2.log",
        "suite-side-by-side-3-part-1.log", "suite-side-by-side-3-part-2.log",
        "suite-side-by-side-3-rest.log"]
