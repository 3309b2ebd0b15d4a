"""check-config run on a real repository: a base commit and a head commit."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from gate.checks.check_config import check as check_config
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import Finding
from gate.vcs import diff
from helpers.gitrepo import make_change


def findings(tmp_path: Path, base: Mapping[str, str | None],
             head: Mapping[str, str | None]) -> list[Finding]:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return list(check_config.run(ctx).findings)


def found(tmp_path: Path, base: Mapping[str, str | None],
          head: Mapping[str, str | None]) -> list[tuple[int, str, str]]:
    """(line, rule, message) of each finding."""
    return [(f.line, f.rule, f.message) for f in findings(tmp_path, base, head)]
