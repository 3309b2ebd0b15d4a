"""The workflow `gate init` writes sets up what the project's install needs
(`gate/adopt/setup_steps.py`): unjs/defu installs with pnpm, which GitHub's ubuntu-latest
does not ship; before, the gate's job had no step that installs it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import Repo
from ruamel.yaml import YAML

from gate import cli

PACKAGE = '{"name": "defu", "scripts": {"test": "vitest run"}}\n'
CI = """\
on: [push, pull_request]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with: {node-version: 16}
      - run: npx eslint .
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node: [18, 20, 22]
    steps:
      - uses: actions/checkout@v4
      - run: corepack enable
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
          cache: pnpm
          registry-url: ${{ secrets.REGISTRY }}
      - run: pnpm install
      - run: pnpm test
      - uses: codecov/codecov-action@v4
"""


def _steps(tmp_path: Path, files: dict[str, str | None], *args: str) -> list[dict[str, Any]]:
    repo = Repo(tmp_path / "repo")
    repo.commit(files)
    assert cli.main(["init", "--repo", str(repo.path), *args]) == 0
    workflow = YAML(typ="safe").load((repo.path / ".github/workflows/gate.yml").read_text())
    return [s for job in workflow["jobs"].values() for s in job["steps"]]


def test_a_pnpm_project_gets_its_test_jobs_set_up(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    steps = _steps(tmp_path, {"package.json": PACKAGE, "pnpm-lock.yaml": "lockfileVersion: 9\n",
                              ".github/workflows/ci.yml": CI})
    assert steps[1:3] == [{"run": "corepack enable"},
                          {"uses": "actions/setup-node@v4",
                           "with": {"node-version": "22", "cache": "pnpm"}}]
    assert steps[3]["id"] == "gate"


def test_a_pnpm_project_without_a_test_job_gets_corepack(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    steps = _steps(tmp_path, {"package.json": PACKAGE, "pnpm-lock.yaml": "lockfileVersion: 9\n"})
    assert steps[1] == {"run": "corepack enable"}


def test_each_shard_is_set_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    steps = _steps(tmp_path, {"package.json": PACKAGE, "pnpm-lock.yaml": "lockfileVersion: 9\n"},
                   "--shards", "2")
    # the shards' job; the merge installs nothing
    assert steps.count({"run": "corepack enable"}) == 1


def test_an_npm_project_needs_nothing_more(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    steps = _steps(tmp_path, {"package.json": PACKAGE, "package-lock.json": "{}\n"})
    assert [s for s in steps if "run" in s] == []
