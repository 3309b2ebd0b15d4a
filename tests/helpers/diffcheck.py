"""One diff check run on a real repository: a base commit and a head commit."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff
from helpers.gitrepo import make_change

Files = Mapping[str, str | None]


def run_check(run: Callable[[DiffContext], CheckResult], tmp_path: Path, base: Files,
              head: Files) -> CheckResult:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return run(ctx)


def found(result: CheckResult) -> list[tuple[str, int, str]]:
    """(path, line, rule) of each finding."""
    return [(f.path, f.line, f.rule) for f in result.findings]
