"""The base's work for its outcomes (checkout, install, suite run) beside the head's commands.
It needs nothing of the head's: under `parallel` it starts beside the head's install, so the two
installs overlap rather than the base's install waiting for the head's to end and then
competing with the suite's runs. Beside them, its failure may be the head's doing: not cached."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import make_change


def _meeting(where: Path) -> str:
    """An install that marks its side (`side.txt`, base or head) and passes only once both sides
    have marked theirs: both install at once, or the first to start waits 10 s and fails."""
    return (f"touch {where}/$(cat side.txt); i=0; "
            f"until [ -f {where}/base ] && [ -f {where}/head ]; do "
            "i=$((i+1)); [ $i -gt 100 ] && exit 1; sleep 0.1; done")


def _gate(repo: Path, where: Path, tmp: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(repo), "--base", "main", "--head",
         "change", "--isolation", "off", "--runs", "2", "--format", "json", "--no-cache",
         "--install", _meeting(where), "--test", "true", *args],
        env={**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}, capture_output=True,
        text=True, timeout=120)
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _install_status(report: dict[str, object]) -> str:
    checks = report["checks"]
    assert isinstance(checks, list)
    return str(next(c for c in checks if c["id"] == "install")["status"])


def test_the_bases_install_runs_beside_the_heads(tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"side.txt": "base"}, {"side.txt": "head"})
    where = tmp_path / "met"
    where.mkdir()
    report = _gate(repo.path, where, tmp_path, "--parallel")
    assert _install_status(report) == "passed"
    assert sorted(p.name for p in where.iterdir()) == ["base", "head"]


@pytest.mark.slow  # its install waits out the 10 s
def test_one_after_another_the_bases_install_waits_for_the_heads(tmp_path: Path) -> None:
    """The twin: with `--no-parallel` the base's work comes after the head's runs, so the
    head's install meets nobody (which is what shows the first test measures the overlap)."""
    repo, _, _ = make_change(tmp_path / "r", {"side.txt": "base"}, {"side.txt": "head"})
    where = tmp_path / "met"
    where.mkdir()
    report = _gate(repo.path, where, tmp_path, "--no-parallel")
    assert _install_status(report) == "failed"


def _cached(tmp: Path) -> list[str]:
    entries = tmp / "cache" / "gate" / "base-outcomes"
    return sorted(p.name for p in entries.iterdir()) if entries.exists() else []


def _failing_base(tmp_path: Path, *args: str) -> list[str]:
    """A base whose suite fails (its `fail.txt`), judged with `args`; what the cache keeps."""
    repo, _, _ = make_change(tmp_path / "r", {"fail.txt": "x"}, {"ok.txt": "y"})
    subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
         "--head", "change", "--isolation", "off", "--runs", "2", "--format", "json",
         "--install", "true", "--test", "test ! -f fail.txt", *args],
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}, capture_output=True,
        text=True, timeout=120, check=False)
    return _cached(tmp_path)


def test_a_base_that_fails_beside_the_heads_commands_is_not_cached(tmp_path: Path) -> None:
    """The head's commands ran beside the base's suite and could have made it fail: the
    failure is not kept for later changes against this base (each runs the base again)."""
    assert _failing_base(tmp_path, "--parallel") == []


def test_a_base_that_fails_alone_is_cached(tmp_path: Path) -> None:
    """The twin: one after another, nothing of the head's runs beside the base's suite, and its
    failure is the base's own: kept."""
    assert len(_failing_base(tmp_path, "--no-parallel")) == 1
