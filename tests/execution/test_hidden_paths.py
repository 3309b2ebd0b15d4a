"""A command the caller's shell finds but the boundary hides (`gate/execution/hidden_paths.py`):
a tool unpacked under /tmp whose PATH entry links into its package, as pnpm's does. The
message names the hidden path and what to do."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.execution import bwrap, hidden_paths


def _unpacked(root: Path) -> Path:
    """`bin/h49tool -> ../lib/h49/cli.sh`, as `npm i -g --prefix /tmp/x pnpm` lays it out."""
    assert any(str(root.resolve()).startswith(d + os.sep) for d in bwrap.TMP_DIRS), (
        "the test's directory must be under a temporary directory the boundary hides")
    (root / "lib" / "h49").mkdir(parents=True)
    tool = root / "lib" / "h49" / "cli.sh"
    tool.write_text('#!/bin/sh\necho "1 passed, 0 failed"\n')
    tool.chmod(0o755)
    (root / "bin").mkdir()
    (root / "bin" / "h49tool").symlink_to("../lib/h49/cli.sh")
    return root / "bin"


def test_the_hidden_target_is_named(tmp_path: Path) -> None:
    bindir = _unpacked(tmp_path)
    said = hidden_paths.note("/bin/sh: 1: h49tool: not found\n",
                             {"PATH": f"{bindir}:/usr/bin:/bin"})
    assert f"`h49tool` is at {bindir}/h49tool on your PATH" in said
    assert f"it needs {tmp_path.resolve()}/lib/h49/cli.sh" in said
    assert "--isolation off" in said


def test_nothing_to_say_where_the_caller_does_not_find_it_either(tmp_path: Path) -> None:
    _unpacked(tmp_path)
    assert hidden_paths.note("/bin/sh: 1: h49tool: not found\n", {"PATH": "/usr/bin"}) == ""
    assert hidden_paths.note("sh: 1: ls: not found\n", {"PATH": "/usr/bin:/bin"}) == ""


@pytest.mark.slow
def test_the_install_not_found_in_the_boundary_says_which_path_is_hidden(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: `h49tool: command not found` while `which h49tool` found it (unjs/defu with a
    pnpm under /tmp)."""
    bindir = _unpacked(tmp_path / "tools")
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--install", "h49tool", "--test", "true",
                     "--isolation", "required"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"needs {(tmp_path / 'tools').resolve()}/lib/h49/cli.sh, which the isolation " \
           "boundary does not show" in err
