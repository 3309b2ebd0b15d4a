"""`--config FILE` (the Action's `config` input): a config file of its own, read from the base."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli


def scan(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, str, str]:
    code = cli.main(["scan", "--repo", str(repo), "--base", "main", "--head", "change",
                     "--format", "json", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_config_file_is_read_from_the_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {
        "ci/gate.toml": "max-changed-files = 1\n", "a.py": "a = 1\n", "b.py": "b = 1\n",
    }, {"a.py": "a = 2\n", "b.py": "b = 2\n", "ci/gate.toml": "max-changed-files = 10\n"})
    code, out, _ = scan(capsys, repo.path, "--config", "ci/gate.toml")
    policy = next(c for c in json.loads(out)["checks"] if c["id"] == "diff-policy")
    assert code == 3
    assert [(f["path"], f["rule"]) for f in policy["findings"]] == [("b.py", "max-changed-files")]
    code, out, _ = scan(capsys, repo.path)  # without it: no limit on changed files
    policy = next(c for c in json.loads(out)["checks"] if c["id"] == "diff-policy")
    assert policy["status"] == "passed"


def test_a_config_file_missing_at_the_base_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"a.py": "a = 1\n"},
                                {"a.py": "a = 2\n", "ci/gate.toml": "runs = 1\n"})
    code, out, err = scan(capsys, repo.path, "--config", "ci/gate.toml")
    assert (code, out) == (2, "")
    assert err == (f"gate: error: the config file ci/gate.toml is not in the base commit "
                   f"{base[:12]}: commit it on the base branch, or drop the option\n")
