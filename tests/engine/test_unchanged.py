"""`gate run` with the base equal to the head: nothing to judge, a pass that says so (even
where the base's own suite fails: that is no change's doing)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate import cli

FAILING = {".gate.toml": 'install = "true"\ntest = "false"\n', "a.txt": "a\n"}


def test_base_equal_to_head_passes_with_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    sha = repo.commit(FAILING, "base")
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "main",
                     "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (report["verdict"], code) == ("pass", 0)
    note = f"nothing to judge: base and head are the same commit ({sha[:12]})"
    assert {(c["status"], c["summary"]) for c in report["checks"]} == {("skipped", note)}
    assert [c["id"] for c in report["checks"]][:3] == ["install", "suite", "base-tests"]


def test_a_head_already_in_the_base_passes_with_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    old = repo.commit(FAILING, "old")
    repo.commit({"b.txt": "b\n"}, "newer")
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", old,
              "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "pass"
    assert report["checks"][0]["summary"] == (
        f"nothing to judge: the head ({old[:12]}) is already in the base")


def test_a_head_with_a_change_is_still_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The honest twin of the note: one commit on top of the base runs, and fails here."""
    repo = Repo(tmp_path / "r")
    repo.commit(FAILING, "base")
    repo.branch("change")
    repo.commit({"b.txt": "b\n"}, "change")
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    # it fails at base too: the verdict is fail, and the gate cannot judge the change (2)
    assert (report["verdict"], code) == ("fail", 2)
    assert report["checks"][1]["status"] in ("failed", "error")
