"""The Action sharded across a matrix, end to end in `act` (host mode, no Docker): the workflow
`gate init --shards 2` writes, run on a small node:test project. Two shard jobs each upload
their partial report; the merge job downloads both, merges them and publishes once.

act in host mode here has no artifact or cache service (`--artifact-server-path` starts one for
upload-artifact v4's protocol only in a container, and the real actions are JavaScript fetched
from GitHub, which this runner cannot reach): helpers/act.py substitutes small local stand-ins
for the pinned upload-artifact, download-artifact and cache actions, which keep artifacts and
cache entries in one directory shared by the jobs. Everything else is the real Action: its
steps, run.sh, `gate run --shard`, `gate merge`, `gate publish` against a fake GitHub API.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.act import events, run_pull_request
from helpers.fake_github import REPO, FakeGitHub
from helpers.gitrepo import Repo

from gate import cli
from gate.adopt import release, workflow_file

pytestmark = pytest.mark.slow  # the Action end to end in act


def _tests(name: str, n: int, skip: str = "") -> str:
    cases = "".join(f"test('{name} {i}', () => {{ assert.strictEqual({i} + 1, {i + 1}); }});\n"
                    for i in range(n))
    return ("const { test } = require('node:test');\nconst assert = require('node:assert');\n"
            f"{cases}{skip}")


def test_a_two_shard_matrix_and_its_merge_post_one_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    action = f"{release.ACTION}@{release.ACTION_COMMIT}  # {release.TAG}"
    workflow = workflow_file.text(2)
    assert workflow.count(action) == 2
    consumer = Repo(tmp_path / "consumer")
    base = consumer.commit({
        ".github/workflows/gate.yml": workflow.replace(action, "octo/gate@v1"),
        ".gate.toml": 'install = "true"\ntest = "node --test"\nruns = 1\n',
        **{f"test/m{i}.test.js": _tests(f"m{i}", i + 2) for i in range(4)},
    }, "base")
    consumer.branch("change")
    head = consumer.commit({
        "test/m2.test.js": None,  # tests removed
        "test/m0.test.js": _tests("m0", 2, "test.skip('later', () => {});\n"),  # a skip
    }, "head")
    consumer.git("remote", "add", "origin", f"https://github.com/{REPO}.git")

    # What one unsharded gate says of this change.
    code = cli.main(["run", "--repo", str(consumer.path), "--base", base, "--head", head,
                     "--format", "json", "--no-cache"])
    unsharded = json.loads(capsys.readouterr().out)
    assert (code, unsharded["verdict"]) == (3, "needs-review")
    expected = sorted((f["path"], f["line"], f["rule"]) for c in unsharded["checks"]
                      for f in c["findings"])
    assert len(expected) == 5  # m2's four tests removed, one skip marker

    with FakeGitHub() as fake:
        proc = run_pull_request(tmp_path, consumer.path, base, head, fake)
    lines = events(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert sorted((e["jobID"], e["jobResult"]) for e in lines if "jobResult" in e) == [
        ("merge", "success"), ("shard", "success"), ("shard", "success")]

    # One check run and one comment, from the merge job, with the unsharded verdict.
    assert len(fake.calls("POST", r".*/check-runs")) == 1
    (run,) = fake.check_runs.values()
    assert (run["name"], run["head_sha"], run["status"], run["conclusion"]) == (
        "gate", head, "completed", "action_required")
    assert sorted((a["path"], a["start_line"]) for a in run["annotations"]) == [
        (path, line) for path, line, _ in expected]
    assert len(fake.calls("POST", r".*/issues/\d+/comments")) == 1
    (comment,) = fake.comments.values()
    assert "gate: **needs-review**" in comment["body"]
    suite = next(c for c in unsharded["checks"] if c["id"] == "suite")
    # The unsharded run's counts, and the merge saying it was made of two shards.
    counts = suite["summary"].split(" (base")[0]
    assert counts == ("1 of 1 runs passed, 10/10 tests, 1 skipped; outcomes as node:test printed "
                      "them (no witness of the gate's own)")
    assert f"| passed | {counts}; 2 shards (base 14: 4 no longer run) |" in comment["body"]
    assert fake.labels[7] == ["gate: needs-review"]
    publish = [e for e in lines if e.get("jobID") == "merge"
               and e.get("stepID") == ["gate", "publish"] and e.get("command") == "set-output"]
    assert {e["name"]: e["arg"] for e in publish}["verdict"] == "needs-review"

    # Each shard's report and logs under a name of its own; the merge uploads nothing.
    store = tmp_path / "store"
    artifacts = {p.name: sorted(f.name for f in p.iterdir())
                 for p in (store / "artifacts").iterdir()}
    assert artifacts.keys() == {"gate-shard-1", "gate-shard-2", "gate-logs-shard-1",
                                "gate-logs-shard-2"}
    assert (artifacts["gate-shard-1"], artifacts["gate-shard-2"]) == (
        ["shard-1.json"], ["shard-2.json"])
    shares = [json.loads((store / "artifacts" / f"gate-shard-{i}" / f"shard-{i}.json")
                         .read_text())["shard"] for i in (1, 2)]
    assert [(s["index"], s["total"]) for s in shares] == [(1, 2), (2, 2)]

    # Durations: none yet, so both shards split by counts; shard 1 pins that to the run
    # (act's run id and attempt are 1), and the merge saves the seconds it read.
    requests = (store / "cache-requests").read_text().splitlines()
    assert sorted(r for r in requests if "durations" in r) == [
        "restore gate-durations-Linux-run-1-shards: miss",
        "restore gate-durations-Linux-run-1-shards: miss",
        "save gate-durations-Linux-merged-1-1",
        "save gate-durations-Linux-run-1-shards"]
    # node:test's report names no file for a passing test: no file is timed, and the next
    # run splits by counts again.
    (saved,) = (store / "cache" / "gate-durations-Linux-merged-1-1").iterdir()
    assert (saved.name, json.loads(saved.read_text())) == (
        "gate-durations.json", {"format": 1, "seconds": {}})
