"""A test that fails in some runs and passes in others is named, with its pattern, at its
definition line; retries never make it green."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli

FLAKY_JS = """\
const { test } = require('node:test');
const fs = require('node:fs');

test('stable', () => {});

test('first run only', () => {
  const first = !fs.existsSync(MARK);
  fs.writeFileSync(MARK, 'x');
  if (!first) throw new Error('state left by the previous run');
});
"""


def test_a_flaky_node_test_is_named_at_its_line_with_its_pattern(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The state lives outside the checkout (each run has a checkout of its own), and the
    runs go one after another: side by side they would race for it."""
    mark = json.dumps(str(tmp_path / "ran"))
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": 'install = "true"\n'},
                             {"a.test.js": FLAKY_JS.replace("MARK", mark)})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--test", "node --test", "--format", "json", "--no-parallel",
                     # state that crosses runs needs no boundary: inside one, each run sees
                     # the checkout through an overlay of its own (test_trials_start_clean)
                     "--isolation", "off"])
    report = json.loads(capsys.readouterr().out)
    suite = report["checks"][1]
    # run 3, the varied one, lists its conditions (what this machine can make)
    assert suite["summary"].startswith("1 of 3 runs passed, 1/2 tests (run 2: exit 1; run 3 ")
    [finding] = suite["findings"]
    assert (finding["path"], finding["line"], finding["severity"]) == ("a.test.js", 6, "error")
    assert finding["message"].startswith(
        "flaky: first run only failed in 2 of 3 runs (passed 1 of 3): "
        "state left by the previous run")
    assert (report["verdict"], code) == ("fail", 1)
