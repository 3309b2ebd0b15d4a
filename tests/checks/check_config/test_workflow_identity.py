"""Workflow steps and jobs paired by what they are (`gate.lang.identity.pair`): a step by its
`uses`/`run` and its place among its neighbours, a job by its steps. A step removed does not
shift the pairs; a renamed job, or steps moved into a new job, are not removals."""
from __future__ import annotations

from pathlib import Path

from helpers.configcheck import found

PATH = ".github/workflows/ci.yml"
# Unnamed steps, as in most workflows: before the change, pairs were made in order among them.
BASE = """\
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: corepack enable
      - run: npm install --engine-strict
      - run: npm test
      - run: npm run lint
      - if: matrix.coverage
        run: npm run coverage
"""


def test_a_step_removed_does_not_shift_the_others(tmp_path: Path) -> None:
    head = BASE.replace("      - run: corepack enable\n", "").replace(
        "npm install --engine-strict", "npm ci --engine-strict")
    assert found(tmp_path, {PATH: BASE}, {PATH: head}) == [
        (6, "workflow", 'job `test`: step 3 (run "corepack enable") removed'),
        (11, "workflow", 'job `test`: step 4 (run "npm install --engine-strict"): run '
         '"npm install --engine-strict" -> "npm ci --engine-strict"')]


def test_a_step_removed_before_a_guarded_step_adds_no_guard(tmp_path: Path) -> None:
    head = BASE.replace("      - run: npm run lint\n", "").replace(
        "run: npm run coverage", "run: npm run coverage -- --ci")
    assert found(tmp_path, {PATH: BASE}, {PATH: head}) == [
        (6, "workflow", 'job `test`: step 6 (run "npm run lint") removed'),
        (15, "workflow", 'job `test`: step 7 (run "npm run coverage"): run "npm run coverage" '
         '-> "npm run coverage -- --ci"')]


def test_a_guard_added_to_a_step_is_still_found(tmp_path: Path) -> None:
    head = BASE.replace("      - run: npm test\n", "      - if: false\n        run: npm test\n")
    assert found(tmp_path, {PATH: BASE}, {PATH: head}) == [
        (13, "workflow", 'job `test`: step 5 (run "npm test"): if (unset) -> false: the '
         "condition decides whether it runs at all")]


def test_a_renamed_job_with_the_same_steps_is_not_removed(tmp_path: Path) -> None:
    head = BASE.replace("  test:\n", "  unit-tests:\n")
    assert found(tmp_path, {PATH: BASE}, {PATH: head}) == []
    # its cheating twin: renamed, and its tests no longer fail the run
    twin = head.replace("      - run: npm test\n",
                        "      - run: npm test\n        continue-on-error: true\n")
    assert [m for _, _, m in found(tmp_path / "twin", {PATH: BASE}, {PATH: twin})] == [
        "job `unit-tests` (renamed from `test`): step 5 (run \"npm test\"): continue-on-error "
        "(unset) -> true: a failure here no longer fails the run"]


SPLIT = """\
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: corepack enable
      - run: npm install --engine-strict
      - run: npm test
      - if: matrix.coverage
        run: npm run coverage
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm install --engine-strict
      - run: npm run lint
"""


def test_steps_moved_into_a_new_job_are_not_removed(tmp_path: Path) -> None:
    assert found(tmp_path, {PATH: BASE}, {PATH: SPLIT}) == []
    # its cheating twin: the new job never runs
    twin = SPLIT.replace("  lint:\n    runs-on", "  lint:\n    if: false\n    runs-on")
    assert [m for _, _, m in found(tmp_path / "twin", {PATH: BASE}, {PATH: twin})] == [
        'job `test`: step 6 (run "npm run lint"), moved to job `lint`, whose job: if (unset) '
        "-> false: the condition decides whether it runs at all"]


def test_one_change_repeated_across_jobs_is_one_finding(tmp_path: Path) -> None:
    jobs = "".join(f"""\
  node-{v}:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm i -g npm@9
      - run: npm test
""" for v in (18, 20, 22))
    base = "name: ci\non: push\njobs:\n" + jobs
    head = base.replace("npm@9", "npm@10")
    assert found(tmp_path, {PATH: base}, {PATH: head}) == [
        (8, "workflow", 'jobs `node-18`, `node-20`, `node-22`: step (run "npm i -g npm@9"): '
         'run "npm i -g npm@9" -> "npm i -g npm@10"')]


def test_a_renamed_workflow_file_is_compared_with_its_old_self(tmp_path: Path) -> None:
    """git finds `ci.yml` renamed to `tests.yml`: not a workflow deleted ("the checks it ran no
    longer run") and a new one, but the same workflow, here with one step changed."""
    head = BASE.replace("npm run lint", "npm run lint -- --max-warnings 0")
    assert found(tmp_path, {PATH: BASE}, {PATH: None, ".github/workflows/tests.yml": head}) == [
        (14, "workflow", 'job `test`: step 6 (run "npm run lint"): run "npm run lint" -> '
         '"npm run lint -- --max-warnings 0"')]
