"""check-config on the gate's own step in a workflow: inputs, continue-on-error, removal."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.configcheck import findings

WORKFLOW = """\
name: gate
on: pull_request
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: acme/gate@v1
        with:
          runs: 3
          strict: true
"""
PATH = ".github/workflows/gate.yml"
STEP = "job `gate`: step `uses acme/gate`"


def _run(tmp_path: Path, base: str, head: str | None) -> list[tuple[int, str, str, str]]:
    return [(f.line, f.rule, f.severity, f.message)
            for f in findings(tmp_path, {PATH: base}, {PATH: head})]


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("runs: 3", "runs: 1", 12, f'{STEP}: input `runs` 3 -> 1'),
    ("          strict: true\n", "", 11, f'{STEP}: input `strict` true -> (unset)'),
    ("strict: true", "strict: true\n          test: pytest -k fast", 14,
     f'{STEP}: input `test` (unset) -> "pytest -k fast"'),
    # a new version of the action does not make a changed input honest
    ("acme/gate@v1\n        with:\n          runs: 3",
     "acme/gate@v2\n        with:\n          runs: 1", 12, f'{STEP}: input `runs` 3 -> 1'),
])
def test_input_changed(tmp_path: Path, old: str, new: str, line: int, message: str) -> None:
    assert _run(tmp_path, WORKFLOW, WORKFLOW.replace(old, new)) == [
        (line, "gate-step", "error",
         f"{message}: the gate judges this change by other rules than the base's")]


def test_continue_on_error_added(tmp_path: Path) -> None:
    head = WORKFLOW.replace("      - uses: acme/gate@v1\n",
                            "      - uses: acme/gate@v1\n        continue-on-error: true\n")
    assert _run(tmp_path, WORKFLOW, head) == [
        (11, "gate-step", "error", f"{STEP}: continue-on-error (unset) -> true: the gate's "
         "verdict no longer fails the run")]


REMOVED = ("job `gate`: the gate's step `acme/gate@v1` removed: this change is no longer "
           "judged by the gate")


def test_step_removed(tmp_path: Path) -> None:
    head = WORKFLOW.split("      - uses: acme/gate@v1")[0]
    assert _run(tmp_path, WORKFLOW, head) == [(6, "gate-step", "error", REMOVED)]


def test_workflow_deleted(tmp_path: Path) -> None:
    assert _run(tmp_path, WORKFLOW, None) == [
        (1, "gate-step", "error", REMOVED),
        (1, "workflow", "warning", f"{PATH} deleted: the checks it ran no longer run")]


def test_job_removed(tmp_path: Path) -> None:
    head = WORKFLOW.split("  gate:\n")[0] + "  other:\n    runs-on: x\n    steps:\n      - run: a\n"
    assert _run(tmp_path, WORKFLOW, head) == [
        (3, "gate-step", "error", REMOVED), (3, "workflow", "warning", "job `gate` removed")]


def test_local_action_is_the_gate_step(tmp_path: Path) -> None:
    base = WORKFLOW.replace("acme/gate@v1", "./")
    assert _run(tmp_path, base, base.replace("runs: 3", "runs: 2")) == [
        (12, "gate-step", "error", "job `gate`: step `uses ./`: input `runs` 3 -> 2: the gate "
         "judges this change by other rules than the base's")]


@pytest.mark.parametrize("head", [
    WORKFLOW.replace("acme/gate@v1", "acme/gate@v2"),
    WORKFLOW.replace("acme/gate@v1", "acme/gate@0123456789abcdef0123456789abcdef01234567"),
    WORKFLOW.replace("runs: 3", 'runs: "3"').replace("strict: true", "strict: 'true'"),
    WORKFLOW.replace("      - uses: acme/gate@v1\n",
                     "      - name: Gate the change\n        uses: acme/gate@v1\n"),
    WORKFLOW.replace("fetch-depth: 0", "fetch-depth: 1"),
], ids=["version", "sha-pin", "quoted-inputs", "named", "other-step-input"])
def test_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    assert _run(tmp_path, WORKFLOW, head) == []
