"""Fresh checkouts: the head's files, in a directory that is always removed."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitrepo import make_change

from gate import workspace


def test_fresh_worktree_has_the_head_and_is_removed(tmp_path: Path) -> None:
    repo, _, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    repo.git("checkout", "-q", "main")
    before = repo.snapshot()
    with workspace.fresh_worktree(str(repo.path), head) as checkout:
        assert Path(checkout, "a.txt").read_text() == "head\n"
        assert not Path(checkout).is_relative_to(repo.path)
        made = checkout
    assert not os.path.exists(made)
    assert repo.snapshot() == before


def test_fresh_worktree_is_removed_on_error(tmp_path: Path) -> None:
    repo, _, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    made = ""
    with pytest.raises(KeyboardInterrupt), workspace.fresh_worktree(str(repo.path), head) as c:
        made = c
        raise KeyboardInterrupt
    assert made and not os.path.exists(made)
    assert repo.git("worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_command_in_the_checkout_cannot_move_the_users_branches(tmp_path: Path) -> None:
    import subprocess

    repo, base, head = make_change(tmp_path / "r", {"a.txt": "base\n"}, {"a.txt": "head\n"})
    refs = repo.git("for-each-ref")
    with workspace.fresh_worktree(str(repo.path), head) as checkout:
        subprocess.run(["git", "branch", "-f", "main", head], cwd=checkout, check=True)
        subprocess.run(["git", "worktree", "prune"], cwd=checkout, check=True)
    assert repo.git("for-each-ref") == refs
    assert repo.git("rev-parse", "main").strip() == base
