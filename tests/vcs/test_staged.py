"""`gate scan --staged`: the index judged against HEAD, as a pre-commit hook sees it."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate import cli

TEST = "tests/test_a.py"
CLEAN = "def test_a():\n    assert 1\n"
SKIPPED = "import pytest\n\n\n@pytest.mark.skip\ndef test_a():\n    assert 1\n"


def _repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.commit({TEST: CLEAN})
    return repo


def _scan(repo: Repo, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict]:
    code = cli.main(["scan", "--base", "HEAD", "--staged", "--repo", str(repo.path),
                     "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


def _markers(report: dict) -> list[tuple[str, int, str]]:
    check = next(c for c in report["checks"] if c["id"] == "skip-markers")
    return [(f["path"], f["line"], f["rule"]) for f in check["findings"]]


def test_staged_marker_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path)
    repo.write({TEST: SKIPPED})
    repo.git("add", TEST)
    code, report = _scan(repo, capsys)
    assert (code, report["head"], _markers(report)) == (3, "index",
                                                        [(TEST, 4, "pytest.mark.skip")])


def test_unstaged_edit_is_not_judged(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path)
    repo.write({TEST: CLEAN + "\n\ndef test_b():\n    assert 2\n"})
    repo.git("add", TEST)
    repo.write({TEST: SKIPPED})  # in the working tree only: not what the commit records
    code, report = _scan(repo, capsys)
    assert (code, report["verdict"], _markers(report)) == (0, "pass", [])


def test_the_index_a_hook_is_given_is_read(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`git commit -a` runs hooks with GIT_INDEX_FILE pointing at a temporary index."""
    repo = _repo(tmp_path)
    repo.write({TEST: SKIPPED})
    other = tmp_path / "next-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(other)}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=repo.path, env=env, check=True)
    subprocess.run(["git", "add", TEST], cwd=repo.path, env=env, check=True)
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    code, report = _scan(repo, capsys)
    assert (code, _markers(report)) == (3, [(TEST, 4, "pytest.mark.skip")])


def test_staged_with_head_is_a_usage_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path)
    code = cli.main(["scan", "--base", "HEAD", "--staged", "--head", "HEAD~0",
                     "--repo", str(repo.path)])
    assert code == 2
    assert "--staged judges the index against HEAD: drop --head" in capsys.readouterr().err
