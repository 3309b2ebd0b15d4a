from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import Repo, make_change

from gate.checks import diff_policy
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: pytest\n"


def _check(repo: Repo, base_sha: str, head_sha: str, cfg: config.Config) -> CheckResult:
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=cfg,
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return diff_policy.run(ctx)


def _run(tmp_path: Path, base: Mapping[str, str | None], head: Mapping[str, str | None],
         cfg: config.Config | None = None) -> CheckResult:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    return _check(repo, base_sha, head_sha, cfg or config.Config())


def _found(result: CheckResult) -> list[tuple[str, int, str, str]]:
    return [(f.path, f.line, f.rule, f.severity) for f in result.findings]


def test_more_files_than_allowed_flags_the_first_beyond(tmp_path: Path) -> None:
    head = {"a.py": "1\n", "b.py": "2\n", "c.py": "3\n", "d.py": "4\n"}
    result = _run(tmp_path, {"x.txt": "x\n"}, head, config.Config(max_changed_files=2))
    assert _found(result) == [("c.py", 1, "max-changed-files", "warning")]
    assert result.findings[0].message == (
        "4 files changed, more than the limit of 2 (max-changed-files): "
        "split the change so that it can be reviewed"
    )


@pytest.mark.parametrize("limit", [3, None])
def test_within_the_file_limit_raises_nothing(tmp_path: Path, limit: int | None) -> None:
    head = {"a.py": "1\n", "b.py": "2\n", "x.txt": None}
    result = _run(tmp_path, {"x.txt": "x\n"}, head, config.Config(max_changed_files=limit))
    assert _found(result) == []
    assert result.status == "passed"


def test_deletions_count_as_changed_files(tmp_path: Path) -> None:
    result = _run(tmp_path, {"a.py": "1\n", "b.py": "2\n"}, {"a.py": None, "b.py": None},
                  config.Config(max_changed_files=1))
    assert _found(result) == [("b.py", 1, "max-changed-files", "warning")]


def test_forbidden_paths_added_modified_deleted(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW, ".github/workflows/old.yml": WORKFLOW}
    head = {".github/workflows/ci.yml": WORKFLOW.replace("pytest", "pytest -x"),
            ".github/workflows/old.yml": None,
            ".github/actions/setup/action.yml": "runs:\n  using: composite\n"}
    result = _run(tmp_path, base, head)
    assert _found(result) == [
        (".github/actions/setup/action.yml", 1, "forbidden-path", "error"),
        (".github/workflows/ci.yml", 6, "forbidden-path", "error"),
        (".github/workflows/old.yml", 1, "forbidden-path", "error"),
    ]
    assert [f.message for f in result.findings] == [
        "file added under the forbidden path .github/actions/: "
        "a person must make or approve changes here",
        "file modified under the forbidden path .github/workflows/: "
        "a person must make or approve changes here",
        "file deleted under the forbidden path .github/workflows/: "
        "a person must make or approve changes here",
    ]


@pytest.mark.parametrize("path", [
    ".github/workflows-docs/readme.md", ".github/CODEOWNERS", "docs/.github/workflows/x.yml",
    "src/app.py",
])
def test_paths_outside_forbidden_prefixes_raise_nothing(tmp_path: Path, path: str) -> None:
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, {path: "y\n"})) == []


@pytest.mark.parametrize(("prefix", "path", "flagged"), [
    ("secrets", "secrets/key.txt", True),
    ("secrets", "secrets", True),
    ("secrets", "secrets.txt", False),
    ("./infra/", "infra/main.tf", True),
    ("infra/main.tf", "infra/main.tf", True),
])
def test_configured_prefixes(tmp_path: Path, prefix: str, path: str, flagged: bool) -> None:
    result = _run(tmp_path, {"x.txt": "x\n"}, {path: "y\n"},
                  config.Config(forbidden_paths=(prefix,)))
    assert _found(result) == ([(path, 1, "forbidden-path", "error")] if flagged else [])


def test_no_forbidden_paths_configured(tmp_path: Path) -> None:
    result = _run(tmp_path, {"x.txt": "x\n"}, {".github/workflows/ci.yml": WORKFLOW},
                  config.Config(forbidden_paths=()))
    assert _found(result) == []


def test_binary_files_and_symlinks(tmp_path: Path) -> None:
    repo, base_sha, _ = make_change(tmp_path / "repo", {"x.txt": "x\n"}, {})
    (repo.path / "docs").mkdir()
    (repo.path / "docs" / "logo.png").write_bytes(b"\x89PNG\x00\x01")
    (repo.path / ".github" / "actions").mkdir(parents=True)
    (repo.path / ".github" / "actions" / "tool.bin").write_bytes(b"\x00\x02")
    os.symlink("../../x.txt", repo.path / ".github" / "actions" / "link")
    os.symlink("x.txt", repo.path / "alias")
    head_sha = repo.commit({}, "binary and links")
    result = _check(repo, base_sha, head_sha, config.Config())
    assert _found(result) == [(".github/actions/link", 1, "forbidden-path", "error"),
                              (".github/actions/tool.bin", 1, "forbidden-path", "error")]
    assert [f.message.split(" under")[0] for f in result.findings] == [
        "symlink added", "binary file added",
    ]
