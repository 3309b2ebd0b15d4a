"""pinned's mutants are killed only by tests that ran them, and no survivor is reported
where no test could run: the line recorder's evidence, end to end on Python. One gate run per
case, under `pinned = "review"` (where a wrong finding costs a needs-review)."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import PYPROJECT

pytestmark = pytest.mark.slow

REVIEW = PYPROJECT + '\n[tool.gate]\nruns = 1\npinned = "review"\npinned-time = 50\n'

BASE = "def add(a, b):\n    return a + b\n"
TEST_BASE = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"

CLAMP = """\
def clamp(x, lo, hi):
    if x > hi:
        return hi
    return x
"""


def _found(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["rule"]) for f in check(report, "pinned")["findings"]]


def _run(tmp_path: Path, wheelhouse: Path, base: dict[str, str | None],
         head: dict[str, str | None]) -> dict[str, Any]:
    return gate_report(tmp_path, wheelhouse, {"pyproject.toml": REVIEW, **base}, head)


def test_a_test_that_hashes_the_source_kills_no_mutant_and_is_named(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The adversary's test: the changed function's source text hashed and compared. Every
    mutant changes the text, so every mutant "failed" it; none ran the code. A broken clamp
    (no lower bound) read "2 of 2 mutants killed"."""
    digest = hashlib.sha256(CLAMP.encode()).hexdigest()
    test = ("import hashlib\nimport inspect\n\nimport calc\n\n\ndef test_clamp_is_pinned():\n"
            "    source = inspect.getsource(calc.clamp).encode()\n"
            f"    assert hashlib.sha256(source).hexdigest() == {digest!r}\n")
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": BASE, "tests/test_calc.py":
                                         TEST_BASE},
                  {"calc/__init__.py": BASE + "\n\n" + CLAMP, "tests/test_clamp.py": test})
    pinned = check(report, "pinned")
    assert report["verdict"] == "needs-review"
    assert _found(report) == [("calc/__init__.py", 6, "survived-mutant"),
                              ("calc/__init__.py", 7, "survived-mutant"),
                              ("calc/__init__.py", 8, "survived-mutant"),
                              ("tests/test_clamp.py", 8, "reads-source")]
    assert pinned["findings"][0]["message"] == (
        "`if x > hi` → `if True`: only tests that never ran this line failed")
    assert "0 of 3 mutants killed" in pinned["summary"], pinned["summary"]


def test_a_test_that_runs_the_code_still_kills_its_mutants(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The honest twin: the test calls clamp on both sides of its bound."""
    test = ("from calc import clamp\n\n\ndef test_clamp():\n    assert clamp(5, 0, 3) == 3\n"
            "    assert clamp(2, 0, 3) == 2\n")
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": BASE, "tests/test_calc.py":
                                         TEST_BASE},
                  {"calc/__init__.py": BASE + "\n\n" + CLAMP, "tests/test_clamp.py": test})
    assert (report["verdict"], _found(report)) == ("pass", [])
    assert "3 of 3 mutants killed" in check(report, "pinned")["summary"]


def test_a_survivor_behind_a_platform_check_joined_to_a_real_condition_is_a_finding(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The adversary's guard: `sys.platform != "win32" and x > hi` names the platform, so
    main excused the untested branch as code for another system. A guard excuses only
    itself: the survivor is needs-review."""
    clamp = ("import sys\n\n\ndef clamp(x, hi):\n    if sys.platform != 'win32' and x > hi:\n"
             "        return hi\n    return x\n")
    test = "from calc import clamp\n\n\ndef test_clamp():\n    assert clamp(2, 3) == 2\n"
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": BASE, "tests/test_calc.py":
                                         TEST_BASE},
                  {"calc/__init__.py": BASE + "\n\n" + clamp, "tests/test_clamp.py": test})
    assert report["verdict"] == "needs-review", check(report, "pinned")
    assert _found(report) == [("calc/__init__.py", 10, "survived-mutant")]


OPTIONAL = """\
try:
    import {module} as _fast
except ImportError:
    _fast = None


def total(xs):
    if _fast is not None{extra}:
        return sum(sorted(xs))
    return sum(xs)
"""
TEST_TOTAL = "from calc import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


def test_a_branch_behind_an_optional_import_that_fails_here_gets_no_survivor(
        tmp_path: Path, wheelhouse: Path) -> None:
    """Honest: the change edits the branch taken only when an optional speed-up imports; it
    does not here, so no test can run it. Said in the summary, not a finding."""
    base = OPTIONAL.format(module="calc_speedups_not_here", extra="")
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": base, "tests/test_calc.py":
                                         TEST_TOTAL},
                  {"calc/__init__.py": base.replace("sum(sorted(xs))", "sum(sorted(xs)) + 0")})
    pinned = check(report, "pinned")
    assert (report["verdict"], _found(report)) == ("pass", []), pinned
    assert pinned["summary"] == (
        "no test was added or changed; 0 of 1 mutants killed; left out: 1 survivor(s) that no "
        "test ran, behind an optional import that fails here (calc/__init__.py:9)")


def test_a_branch_behind_an_optional_import_that_succeeds_keeps_its_survivor(
        tmp_path: Path, wheelhouse: Path) -> None:
    """The adversary's spelling: untested code put behind an optional import's name, where
    the import succeeds (its `except ImportError` never ran): the tests could have run it."""
    base = OPTIONAL.format(module="json", extra=" and len(xs) > 99")
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": base, "tests/test_calc.py":
                                         TEST_TOTAL},
                  {"calc/__init__.py": base.replace("sum(sorted(xs))", "sum(sorted(xs)) + 1")})
    assert report["verdict"] == "needs-review"
    assert _found(report) == [("calc/__init__.py", 9, "survived-mutant")]


VERSIONED = """\
import sys


def total(xs):
    out = 0
    for x in xs:
        if sys.version_info < (3, 0):
            out = out + int(x)
        else:
            out += x
    return out
"""


def test_a_branch_for_another_python_inside_a_function_gets_no_survivor(
        tmp_path: Path, wheelhouse: Path) -> None:
    """Honest: the edited line runs only on Python 2, inside a loop of a function (not a
    whole module no test loads: the probe's case). The line beside it is tested as usual."""
    head = VERSIONED.replace("int(x)", "int(x) * 1").replace("out += x", "out = out + x")
    report = _run(tmp_path, wheelhouse, {"calc/__init__.py": VERSIONED, "tests/test_calc.py":
                                         TEST_TOTAL}, {"calc/__init__.py": head})
    pinned = check(report, "pinned")
    assert (report["verdict"], _found(report)) == ("pass", []), pinned
    assert pinned["summary"] == (
        "no test was added or changed; 1 of 2 mutants killed; left out: 1 survivor(s) that no "
        "test ran, behind a check of the Python version (calc/__init__.py:8)")


def test_a_docstring_only_change_with_a_test_moved_is_no_code_change(
        tmp_path: Path, wheelhouse: Path) -> None:
    """Honest: a test moved into a new file, and a docstring reworded. The moved test
    passes on the base's code, as it must: the code did not change."""
    documented = 'def add(a, b):\n    """The sum."""\n    return a + b  # a comment\n'
    test_sub = "from calc import add\n\n\ndef test_add_zero():\n    assert add(0, 1) == 1\n"
    report = _run(tmp_path, wheelhouse,
                  {"calc/__init__.py": documented,
                   "tests/test_calc.py": TEST_BASE + "\n\n" + test_sub.split("\n\n\n")[1]},
                  {"calc/__init__.py": documented.replace("The sum.", "The sum of a and b.")
                   .replace("a comment", "another comment"),
                   "tests/test_calc.py": TEST_BASE, "tests/test_zero.py": test_sub})
    pinned = check(report, "pinned")
    assert (report["verdict"], pinned["status"], pinned["summary"]) == (
        "pass", "passed", "no code changed"), pinned


WAIT = """\
import time


def wait(ready):
    while ready() is False:
        time.sleep(0.01)
    return True
"""
TEST_WAIT = """\
from calc import wait


def test_wait():
    assert wait(lambda: True)
"""


def test_a_mutant_that_hangs_costs_its_own_limit_not_the_gates_timeout(
        tmp_path: Path, wheelhouse: Path) -> None:
    """Its mutant (the loop's condition) sleeps forever. It ends at its own limit (a small
    multiple of its tests' time in the suite's run, at least 10 s), far below the gate's
    `timeout` of 1000 s; a real project lost 69 s to one such mutant."""
    config = REVIEW + "timeout = 1000\n"
    report = gate_report(tmp_path, wheelhouse, {
        "pyproject.toml": config, "calc/__init__.py": WAIT, "tests/test_calc.py": TEST_WAIT},
        {"calc/__init__.py": WAIT.replace("ready() is False", "ready() == False")})
    summary = check(report, "pinned")["summary"]
    found = re.search(r"1 timed out at its own limit \((\d+) s: 3 times its tests' time in "
                      r"the suite's run\)", summary)
    assert found is not None, summary
    assert 10 <= int(found.group(1)) < 1000
