"""The working tree as a commit (gate/agent/snapshot.py): what `gate submit` and the Stop hook
judge, made without writing the user's index, branch or files."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import Repo

from gate.agent import snapshot, submit


def test_the_commit_holds_the_working_tree_as_it_is(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit({"kept.py": "a = 1\n", "gone.py": "b = 1\n", "staged.py": "c = 1\n",
                        ".gitignore": "build/\n"})
    repo.write({"kept.py": "a = 2\n", "gone.py": None, "new.py": "d = 1\n",
                "build/out.txt": "ignored\n", "staged.py": "c = 2\n"})
    repo.git("add", "staged.py")
    repo.write({"staged.py": "c = 3\n"})  # staged one way, changed again in the tree
    before = repo.snapshot()
    made = snapshot.commit(str(repo.path), base, "work")
    assert repo.snapshot() == before
    assert repo.git("ls-tree", "-r", "--name-only", made).split() == [
        ".gitignore", "kept.py", "new.py", "staged.py"]
    assert repo.git("show", f"{made}:kept.py") == "a = 2\n"
    assert repo.git("show", f"{made}:staged.py") == "c = 3\n"
    assert repo.git("rev-parse", f"{made}^").strip() == base


def test_nothing_changed_is_the_parent_itself(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit({"a.py": "a = 1\n"})
    assert snapshot.commit(str(repo.path), base, "work") == base


def test_commit_to_branch_moves_only_that_branch(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    base = repo.commit({"a.py": "a = 1\n"})
    repo.write({"a.py": "a = 2\n"})
    first = submit.commit_to_branch(str(repo.path), "gate/submit/main", "one")
    repo.write({"a.py": "a = 3\n"})
    second = submit.commit_to_branch(str(repo.path), "gate/submit/main", "two")
    assert repo.git("rev-parse", "main").strip() == base
    assert repo.git("rev-parse", "gate/submit/main").strip() == second
    assert repo.git("rev-parse", f"{second}^").strip() == first
    assert repo.git("status", "--porcelain").strip() == "M a.py"


def test_a_detached_head_submits_to_gate_submit(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({"a.py": "a = 1\n"})
    repo.git("checkout", "-q", "--detach")
    assert submit.branch_name(str(repo.path), None) == "gate/submit"
