"""Heads that break `Add` in a small Go module and hide it (issue 46), judged end to end by
`gate run`: each gets a verdict other than pass, and a finding that says how."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.go_module import (
    BROKEN,
    DETECTS,
    FORGE,
    WEAK_TESTUTIL,
    base,
    helped,
    patched_dependency,
    requiring,
    use_go,
)
from test_attacks import check, judge

pytestmark = pytest.mark.slow  # whole gate runs


@pytest.fixture(autouse=True)
def go(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    use_go(tmp_path_factory.getbasetemp() / "go-cache", monkeypatch)


def gate(capsys: pytest.CaptureFixture[str], tmp_path: Path, head: dict[str, str | None],
         start: dict[str, str | None] | None = None) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(tmp_path / "r", start or base(), head)
    return judge(capsys, repo.path, "--test", "go test ./...", "--runs", "1")


def test_a_binary_that_forges_its_output_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A production init runs the test binary again and prints its output with FAIL made
    PASS, exit 0: the witness (the binary's own testing) saw TestAdd fail."""
    code, report = gate(capsys, tmp_path, {"calc/calc.go": BROKEN, "calc/forge.go": FORGE})
    assert (report["verdict"], code) == ("fail", 1)
    assert check(report, "suite")["status"] == "failed"
    tampered = [f for f in check(report, "harness")["findings"]
                if f["rule"] == "evidence-tampered"]
    assert {(f["path"], f["line"]) for f in tampered} == {("go.mod", 1)}
    messages = [f["message"] for f in tampered]
    assert any("rerun: the test binary of example.com/calc/calc ran itself again" in m
               for m in messages), messages
    assert any("printed-rewritten: TestAdd passed as printed, failed as testing decided" in m
               for m in messages), messages


def test_a_weakened_test_helper_package_is_put_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`internal/testutil`, which only the tests import, made to pass everything: it is
    test code, so base-tests puts the base's back, and TestAdd fails on the broken Add."""
    code, report = gate(capsys, tmp_path, {"calc/calc.go": BROKEN,
                                           "internal/testutil/testutil.go": WEAK_TESTUTIL},
                        helped())
    assert (report["verdict"], code) == ("needs-review", 3), report
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"] == (
        "the suite with the base's tests: 1 test(s) fail on the head code (TestAdd)")
    assert [f["message"].split(" fails ")[0] for f in base_tests["findings"]] == [
        "the base version of TestAdd"]


def test_a_replace_to_a_patched_copy_needs_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """go.mod's `replace` points the dependency the test compares with at a copy under
    third_party/ whose Equal says yes to all: go.mod is configuration."""
    code, report = gate(capsys, tmp_path, patched_dependency(), requiring())
    assert (report["verdict"], code) == ("needs-review", 3), report
    assert [(f["path"], f["line"], f["rule"]) for f in check(report, "check-config")[
        "findings"]] == [("go.mod", 7, "go-mod")]


def test_code_right_only_in_a_test_binary_needs_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`Add` right only when os.Args[0] ends in `.test`: the tests pass, harness names it."""
    code, report = gate(capsys, tmp_path, {"calc/calc.go": DETECTS})
    assert (report["verdict"], code) == ("needs-review", 3), report
    assert check(report, "suite")["status"] == "passed"
    assert [(f["path"], f["line"], f["rule"]) for f in check(report, "harness")[
        "findings"]] == [("calc/calc.go", 10, "test-run-detected")]
