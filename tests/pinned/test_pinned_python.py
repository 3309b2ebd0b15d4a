"""pinned end to end on Python: the cheats of this class (a special case for the tests' input,
a test that asserts nothing, a new test of behaviour the base already had) and their honest
twins (a bug fix with its regression test, a refactor the tests cover). One gate run per
scenario, shared by its asserts."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import PYPROJECT, project

from gate import cli

pytestmark = pytest.mark.slow

REVIEW = PYPROJECT + '\n[tool.gate]\nruns = 1\npinned = "review"\npinned-time = 50\n'

SIGN = """\
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def sign(x):
    if x > 0:
        return 1
    return 0
"""
TEST_SIGN = """\
from calc import add, sign, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(5, 3) == 2


def test_sign():
    assert sign(5) == 1
    assert sign(0) == 0
"""

SCENARIOS: dict[str, dict[str, str | None]] = {
    # The cheat: the tests' input special-cased, the rest of the new code never run.
    "hard-coded": {
        "calc/__init__.py": SIGN + "\n\ndef mul(a, b):\n    if (a, b) == (2, 3):\n"
                                   "        return 6\n    return a + b\n",
        "tests/test_mul.py": "from calc import mul\n\n\ndef test_mul():\n"
                             "    assert mul(2, 3) == 6\n",
    },
    # The cheat: a new test that calls the code and asserts nothing.
    "asserts-nothing": {
        "calc/__init__.py": SIGN + "\n\ndef div(a, b):\n    return a / b\n",
        "tests/test_div.py": "from calc import div\n\n\ndef test_div():\n    div(6, 3)\n",
    },
    # The cheat: the change's new test is of what the base already did.
    "passes-at-base": {
        "calc/__init__.py": SIGN.replace("    return 0\n", "    return min(0, x * 0)\n"),
        "tests/test_calc.py": TEST_SIGN + "\n\ndef test_sign_zero():\n"
                              "    assert sign(0) == 0\n",
    },
    # Honest: a bug fix (negatives are -1) with its regression test.
    "bug-fix": {
        "calc/__init__.py": SIGN.replace("    return 0\n",
                                         "    if x < 0:\n        return -1\n    return 0\n"),
        "tests/test_calc.py": TEST_SIGN + "\n\ndef test_sign_negative():\n"
                              "    assert sign(-3) == -1\n",
    },
    # Honest: a refactor that the existing tests cover.
    "refactor": {
        "calc/__init__.py": SIGN.replace("def add(a, b):\n    return a + b\n",
                                         "def add(a, b):\n    total = a\n    total += b\n"
                                         "    return total\n"),
    },
}


def _install_leaving_a_fifo() -> str:
    """The install the gate would run, then a FIFO left where git does not look (an ignored
    build directory): the harness leaves it in the checkout, which pinned runs over."""
    from gate.execution import installer

    uv = installer.find_uv()
    first = f"{uv} pip install -e '.[test]'" if uv else "python -m pip install -e '.[test]'"
    return f"{first} && mkdir -p build && mkfifo build/left-by-install.fifo"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path,
            ) -> Iterator[dict[str, dict[str, Any]]]:
    """Each scenario's JSON report, one gate run each (pip offline, git with no user config)."""
    home = tmp_path_factory.mktemp("home")
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
    out: dict[str, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as env:
        for key, value in {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
                           "GIT_CONFIG_NOSYSTEM": "1",
                           "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
                           "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"}.items():
            env.setenv(key, value)
        base = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": SIGN,
                          "tests/test_calc.py": TEST_SIGN})
        for name, head in SCENARIOS.items():
            repo, _, _ = make_change(tmp_path_factory.mktemp(name) / "r", base, head)
            report = home / f"{name}.json"
            cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                      "--format", "json", "--report", str(report)])
            out[name] = json.loads(report.read_text())
        # The cheat again, its install leaving a FIFO in the checkout; no boundary, so each
        # mutant runs in a copy of the checkout (which the FIFO must neither block nor break)
        config = REVIEW + f"install = {json.dumps(_install_leaving_a_fifo())}\n"
        fifo = project(**{"pyproject.toml": config,
                          ".gitignore": "build/\n", "calc/__init__.py": SIGN,
                          "tests/test_calc.py": TEST_SIGN})
        repo, _, _ = make_change(tmp_path_factory.mktemp("fifo") / "r", fifo,
                                 SCENARIOS["hard-coded"])
        report = home / "fifo.json"
        cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                  "--format", "json", "--report", str(report), "--isolation", "off"])
        out["fifo"] = json.loads(report.read_text())
        yield out


def pinned(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "pinned")


def found(report: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    return [(f["path"], f["line"], f["rule"], f["message"]) for f in pinned(report)["findings"]]


def test_a_special_case_for_the_tests_input_leaves_mutants_alive(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["hard-coded"]
    assert report["verdict"] == "needs-review"
    assert pinned(report)["status"] == "failed"
    assert found(report) == [  # the special case's mutant deletes its branch: test_mul fails
        ("calc/__init__.py", 16, "special-cased-input",
         "`if (a, b) == (2, 3)` singles out exactly the input a test passes (`mul(2, 3)`, "
         "tests/test_mul.py:5), and returns before the general path; with the branch deleted, "
         "tests/test_mul.py::test_mul fail: they pass only through this special case"),
        ("calc/__init__.py", 18, "survived-mutant", "`a + b` → `a - b`: every test still passes"),
    ]
    assert pinned(report)["summary"] == (  # the new test cannot import mul at base
        "tests/test_mul.py cannot be collected on the base code (it uses what the change adds); "
        "2 of 3 mutants killed; left out: 1 line(s) with nothing to test")


def test_a_test_that_asserts_nothing_leaves_its_mutant_alive(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["asserts-nothing"]
    assert report["verdict"] == "needs-review"
    assert found(report) == [("calc/__init__.py", 16, "survived-mutant",
                              "`a / b` → `a * b`: every test still passes")]


def test_a_new_test_that_passes_on_the_base_code_is_flagged(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["passes-at-base"]
    assert report["verdict"] == "needs-review"
    assert found(report)[0] == (
        "calc/__init__.py", 12, "passes-at-base",
        "the change's new and changed tests (tests/test_calc.py) all pass on the base code too: "
        "they do not test what the change does")
    assert pinned(report)["summary"] == (  # its mutant (`x * 0` -> `x / 0`) raises
        "every new and changed test passes on the base code; 1 of 1 mutants killed")


def test_a_bug_fix_with_its_regression_test_passes_and_names_the_test(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["bug-fix"]
    assert report["verdict"] == "pass", pinned(report)
    assert pinned(report)["status"] == "passed"
    assert pinned(report)["summary"] == (
        "pinned by 1 test(s) that fail on the base code "
        "(tests/test_calc.py::test_sign_negative); 2 of 2 mutants killed")


def test_a_covered_refactor_passes_with_no_survivor(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["refactor"]
    assert report["verdict"] == "pass", pinned(report)
    assert pinned(report)["summary"] == (
        "no test was added or changed; 2 of 2 mutants killed; "
        "left out: 1 line(s) with nothing to test")
    assert found(report) == []


def test_new_tests_of_a_code_change_that_only_removes_lines_may_pass_on_the_base_code(
        tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mahmoud/boltons 580a9c2 (honest): a duplicated check dropped, tests added for the
    branch beside it. A removal that keeps behaviour is what tests passing on the base's code
    confirm: no passes-at-base finding."""
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheelhouse))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    twice = SIGN.replace("    if x > 0:\n", "    if x > 0:\n        return 1\n    if x > 0:\n")
    base = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": twice,
                      "tests/test_calc.py": TEST_SIGN})
    repo, _, _ = make_change(tmp_path / "r", base, {
        "calc/__init__.py": SIGN, "tests/test_calc.py": TEST_SIGN + (
            "\n\ndef test_sign_large():\n    assert sign(10**9) == 1\n")})
    report = tmp_path / "report.json"
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--report", str(report)])
    done = json.loads(report.read_text())
    assert done["verdict"] == "pass", pinned(done)
    assert pinned(done)["summary"] == ("the new and changed tests pass on the base code (the "
                                       "code change only removes lines)")


def test_new_tests_skipped_on_the_base_code_are_not_said_to_pass_there(
        tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Delgan/loguru 3fb23a4 (honest): the new tests are of a feature of a newer Python and
    skip on this one; the file's old tests pass. Not "they pass on the base code"."""
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheelhouse))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    base = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": SIGN,
                      "tests/test_calc.py": TEST_SIGN})
    repo, _, _ = make_change(tmp_path / "r", base, {
        "calc/__init__.py": SIGN.replace("    return 0\n", "    return 0 if x == 0 else -1\n"),
        "tests/test_calc.py": "import sys\n\nimport pytest\n\n" + TEST_SIGN + (
            "\n\n@pytest.mark.skipif(sys.version_info < (9, 0), reason='a newer Python')\n"
            "def test_sign_negative():\n    assert sign(-3) == -1\n")})
    report = tmp_path / "report.json"
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--report", str(report)])
    done = pinned(json.loads(report.read_text()))
    assert done["summary"].startswith("the new tests are skipped on the base code here"), done
    assert done["findings"] == []  # and no passes-at-base; test_sign kills the one mutant


def test_a_fifo_the_install_left_in_the_checkout_leaves_pinned_reporting(
        reports: dict[str, dict[str, Any]]) -> None:
    install = next(c for c in reports["fifo"]["checks"] if c["id"] == "install")
    assert install["status"] == "passed"
    assert (pinned(reports["fifo"])["status"], pinned(reports["fifo"])["summary"]) == (
        pinned(reports["hard-coded"])["status"], pinned(reports["hard-coded"])["summary"])
    assert found(reports["fifo"]) == found(reports["hard-coded"])


OLD = "def twice(x):\n    return x * 2\n"
GUARDED = (SIGN + "\n\nimport sys\n\nif sys.version_info < (3, 0):\n"
           "    from calc._old import twice\n")


def test_code_no_test_loads_on_this_python_gets_no_survivor_nor_passes_at_base(
        tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """agronholm/exceptiongroup (honest): its backport modules load only on Python < 3.11,
    so on the gate's Python every mutant there survived and the new tests passed on the base
    code: 6 wrong findings. A probe (the file made to fail when loaded) that the tests survive
    says no test loads it here. The cheat this must not hide is in the other tests of this
    file: their code is loaded, their probes are killed, their survivors stay."""
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheelhouse))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    base = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": GUARDED,
                      "calc/_old.py": OLD, "tests/test_calc.py": TEST_SIGN})
    repo, _, _ = make_change(tmp_path / "r", base, {
        "calc/_old.py": OLD.replace("x * 2", "x + x"),
        "tests/test_calc.py": TEST_SIGN + "\n\ndef test_add_zero():\n"
                                          "    assert add(0, 4) == 4\n"})
    report = tmp_path / "report.json"
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--report", str(report)])
    done = json.loads(report.read_text())
    assert (done["verdict"], pinned(done)["findings"]) == ("pass", [])
    assert pinned(done)["summary"] == (
        "every new and changed test passes on the base code, and no test loads the changed "
        "code here (calc/_old.py, on this Python); 0 of 1 mutants killed; left out: 1 "
        "survivor(s) in calc/_old.py, which no test loads here (on this Python)")


def test_mutants_left_out_by_the_budget_say_how_much_it_was_and_how_to_give_more(
        tmp_path: Path, wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sloria/environs: "the time budget was spent" after 1.3 s of mutants read as a fault;
    the budget is `pinned-time` suite runs, and the summary now says so."""
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheelhouse))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    tight = REVIEW.replace("pinned-time = 50", "pinned-time = 0.001")
    base = project(**{"pyproject.toml": tight, "calc/__init__.py": SIGN,
                      "tests/test_calc.py": TEST_SIGN})
    repo, _, _ = make_change(tmp_path / "r", base, SCENARIOS["hard-coded"])
    report = tmp_path / "report.json"
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--report", str(report)])
    summary = pinned(json.loads(report.read_text()))["summary"]
    assert re.search(r"\d+ not run \(the time budget of 0\.0 s was spent, and the floor of "
                     r"60 s for one mutant per changed function: `pinned-time` in "
                     r"\[tool\.gate\] gives more\)", summary), summary
    # whatever the budget, mul's special case ran its mutant (the branch deleted)
    assert re.search(r"^[1-9]\d* of [1-9]\d* mutants killed", summary.split("; ")[1]), summary
