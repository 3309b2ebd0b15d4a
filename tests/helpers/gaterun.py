"""One real gate run on a base and a head, as the end-to-end tests make it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate import cli
from helpers.gitrepo import make_change


def gate_report(root: Path, wheelhouse: Path, base: dict[str, str | None],
          head: dict[str, str | None], *args: str) -> dict[str, Any]:
    """One gate run in a home of its own, pip offline from the wheelhouse."""
    home = root / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        mp.setenv("PIP_FIND_LINKS", str(wheelhouse))
        mp.setenv("PIP_NO_INDEX", "1")
        repo, _, _ = make_change(root / "r", base, head)
        out = root / "report.json"
        cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                  "--runs", "1", "--format", "json", "--report", str(out), *args])
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)
