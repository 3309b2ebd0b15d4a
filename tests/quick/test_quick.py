"""`gate run --quick` end to end: real repositories, real fresh environments, real pytest. One
repository per kind of change, each judged once by the quick check; the tests share them."""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import Repo, isolated_home, make_change
from helpers.pyproject_fixture import CALC, project

from gate import cli
from gate.agent import attempts, submit
from gate.checks import registry
from gate.report import json_report, text

pytestmark = pytest.mark.slow

# Each user check prints what it is, so that its output says it ran; `lint` fails on `bad`.
CHECKS = """
[tool.gate]
runs = 3

[[tool.gate.checks]]
name = "lint"
run = "python -c 'import calc, sys; print(\\"lint\\"); sys.exit(hasattr(calc, \\"bad\\"))'"
kind = "lint"

[[tool.gate.checks]]
name = "types"
run = "python -c 'print(\\"types\\")'"
kind = "typecheck"

[[tool.gate.checks]]
name = "other"
run = "python -c 'print(\\"other\\")'"
"""
BUILD = """
[[tool.gate.checks]]
name = "build"
run = "python -c 'print(\\"build\\")'"
kind = "build"
"""
FIXED_SUB = CALC + "\n\ndef mul(a, b):\n    return a * b\n"
TEST_MUL = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
CASES: dict[str, tuple[str, dict[str, str | None]]] = {
    "bug-fix": (BUILD, {"calc/__init__.py": FIXED_SUB, "tests/test_mul.py": TEST_MUL}),
    "code-only": (BUILD, {"calc/__init__.py": FIXED_SUB}),
    "docs-only": ("", {"README.md": "# calc\n\nAdds numbers.\n"}),
    "lint-fails": (BUILD, {"calc/__init__.py": CALC + "\nbad = 1  # type: ignore\n"}),
}


def base_files(extra: str) -> dict[str, str | None]:
    return project(**{"pyproject.toml": (project()["pyproject.toml"] or "") + CHECKS + extra})


class Runs:
    def __init__(self) -> None:
        self.codes: dict[str, int] = {}
        self.reports: dict[str, dict[str, Any]] = {}
        self.paths: dict[str, Path] = {}
        self.repos: dict[str, Repo] = {}


def quick(repo: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["run", "--quick", "--repo", str(repo), "--base", "main",
                         "--head", "change", *args])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Runs:
    tmp = tmp_path_factory.mktemp("quick")
    found = Runs()
    with isolated_home(tmp / "home", wheelhouse):
        for name, (extra, head) in CASES.items():
            repo, _, _ = make_change(tmp / name, base_files(extra), head)
            found.repos[name] = repo
            found.paths[name] = tmp / f"{name}.json"
            code, out, _ = quick(repo.path, "--format", "json", "--report",
                                 str(found.paths[name]))
            found.codes[name], found.reports[name] = code, json.loads(out)
    return found


def statuses(report: dict[str, Any]) -> dict[str, str]:
    """What ran besides the diff checks (which always do)."""
    assert all(check(report, i)["status"] != "skipped" for i in registry.DIFF)
    return {c["id"]: c["status"] for c in report["checks"]
            if c["status"] != "skipped" and c["id"] not in registry.DIFF}


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def test_a_bug_fix_runs_the_lint_and_type_checks_and_the_suite_once(runs: Runs) -> None:
    report = runs.reports["bug-fix"]
    assert statuses(report) == {"install": "passed", "suite": "passed", "lint": "passed",
                                "types": "passed"}
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 3/3 tests"
    for not_run in ("base-tests", "pinned", "build", "other"):
        assert check(report, not_run)["summary"] == "not run by `gate run --quick`", not_run
    assert report["quick"] == {
        "full_gate": False, "change_kind": "code+tests",
        "ran": ["install", "suite", "lint", "types", *registry.DIFF],
        "why": "a bug fix (it changes code and a test): the lint and type checks (lint, "
               "types), and the suite once"}


def test_a_quick_pass_exits_4_not_the_gates_0(runs: Runs) -> None:
    assert runs.reports["bug-fix"]["verdict"] == "pass"
    assert runs.codes["bug-fix"] == 4


def test_a_code_only_change_runs_lint_typecheck_and_the_build_not_the_tests(runs: Runs) -> None:
    report = runs.reports["code-only"]
    assert statuses(report) == {"install": "passed", "lint": "passed", "types": "passed",
                                "build": "passed"}
    assert check(report, "suite")["status"] == "skipped"
    assert report["quick"]["change_kind"] == "code"
    assert report["quick"]["ran"] == ["install", "lint", "types", "build", *registry.DIFF]
    assert runs.codes["code-only"] == 4


def test_a_docs_only_change_without_a_build_check_has_nothing_more_to_run(runs: Runs) -> None:
    report = runs.reports["docs-only"]
    assert statuses(report) == {"install": "passed", "lint": "passed", "types": "passed"}
    assert report["quick"]["change_kind"] == "docs"
    assert report["quick"]["why"] == (
        "a change to docs only: the lint and type checks (lint, types); no build check is "
        "configured, so there is nothing more to run quickly")


def test_a_failing_lint_check_fails_the_quick_check_with_exit_1(runs: Runs) -> None:
    report = runs.reports["lint-fails"]
    assert check(report, "lint")["status"] == "failed"
    assert (report["verdict"], runs.codes["lint-fails"]) == ("fail", 1)


def test_the_diff_checks_run_too(runs: Runs) -> None:
    """They cost a fraction of a second, beside the install: a new escape is heard of first."""
    [found] = check(runs.reports["lint-fails"], "escapes")["findings"]
    assert (found["path"], found["line"], found["rule"]) == ("calc/__init__.py", 8, "type: ignore")
    assert check(runs.reports["bug-fix"], "escapes")["status"] == "passed"


def test_the_text_says_it_is_not_the_full_gate_and_what_it_ran(runs: Runs) -> None:
    shown = text.render(json_report.load(str(runs.paths["bug-fix"])))
    assert ("quick check: not the full gate. It ran: install, suite, lint, types and the diff "
            "checks. Why: a bug "
            "fix (it changes code and a test): the lint and type checks (lint, types), and "
            "the suite once.") in shown
    assert "quick verdict: pass" in shown
    assert "\nverdict: pass" not in shown


def test_publish_refuses_a_quick_report(runs: Runs, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith(("GITHUB_", "GATE_"))]:
        monkeypatch.delenv(key)
    path = str(runs.paths["bug-fix"])
    assert cli.main(["publish", "--report", path]) == 2
    assert capsys.readouterr().err == (
        f"gate: error: {path} is the report of `gate run --quick`, a quick check and not the "
        "full gate: gate publish takes only the gate's report. Write one with `gate run "
        "--report FILE` (without --quick)\n")


def test_merge_refuses_a_quick_report(runs: Runs, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(runs.paths["code-only"])
    assert cli.main(["merge", path, "--repo", str(runs.repos["code-only"].path)]) == 2
    assert "is the report of `gate run --quick`, a quick check and not the full gate: gate " \
           "merge takes only the gate's report" in capsys.readouterr().err


@pytest.mark.usefixtures("offline_pip")
def test_the_full_gate_on_the_same_change_has_no_quick_object(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --quick, the same bug fix is judged by the whole gate: every check, exit 0."""
    base = base_files(BUILD)
    base["pyproject.toml"] = (base["pyproject.toml"] or "").replace("runs = 3", "runs = 1")
    repo, _, _ = make_change(tmp_path / "r", base, CASES["bug-fix"][1])
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (code, report["verdict"]) == (0, "pass")
    assert "quick" not in report
    assert {c["id"] for c in report["checks"] if c["status"] == "skipped"} == set()


@pytest.fixture(scope="module")
def submitted(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path,
              ) -> tuple[Repo, submit.Answer]:
    tmp = tmp_path_factory.mktemp("quick-submit")
    with isolated_home(tmp / "home", wheelhouse):
        repo = Repo(tmp / "work")
        repo.commit(base_files(BUILD), "base")
        repo.branch("work")
        repo.write({"calc/__init__.py": FIXED_SUB, "tests/test_mul.py": TEST_MUL})
        answer = submit.submit(submit.Request(base="main", repo=str(repo.path), quick=True))
    return repo, answer


def test_submit_quick_runs_the_quick_check_and_counts_no_attempt(
        submitted: tuple[Repo, submit.Answer]) -> None:
    repo, answer = submitted
    assert (answer.verdict, answer.exit_code, answer.attempt, answer.attempts_left) == (
        "pass", 4, 0, 3)
    assert answer.feedback.startswith(
        "gate submit --quick: pass for branch gate/submit/work at ")
    assert "quick check: not the full gate: not counted as an attempt (3 of 3 left)" in (
        answer.feedback)
    main = repo.git("rev-parse", "main").strip()
    key = attempts.change_key(str(repo.path), main, repo.git("rev-parse", "HEAD").strip())
    assert attempts.read(str(repo.path), key).used == 0


def test_submit_quick_on_the_command_line_exits_4(submitted: tuple[Repo, submit.Answer],
                                                 tmp_path: Path, wheelhouse: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    repo, _ = submitted
    with isolated_home(tmp_path / "home", wheelhouse):
        code = cli.main(["submit", "--quick", "--base", "main", "--repo", str(repo.path),
                         "--format", "json"])
    answer = json.loads(capsys.readouterr().out)
    assert (code, answer["verdict"], answer["attempt"]) == (4, "pass", 0)
