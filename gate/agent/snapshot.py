"""The working tree as a commit, made through a temporary index: the user's index, current
branch and files stay as they were."""
from __future__ import annotations

import os
import tempfile

from gate.vcs import git


def has_head(repo: str) -> bool:
    return bool(git.run(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False))


def tree(repo: str) -> str:
    """The tree of every file in the working tree that git does not ignore."""
    with tempfile.TemporaryDirectory(prefix="gate-index-") as scratch:
        index = os.path.join(scratch, "index")
        if has_head(repo):
            git.run(repo, "read-tree", "HEAD", index_file=index)
        git.run(repo, "add", "-A", "--", ".", index_file=index)
        return git.run(repo, "write-tree", index_file=index).decode().strip()


def commit(repo: str, parent: str | None, message: str) -> str:
    """A commit of the working tree on `parent`; `parent` itself when nothing changed."""
    made = tree(repo)
    if parent is not None and git.text(repo, "rev-parse", f"{parent}^{{tree}}").strip() == made:
        return parent
    return git.text(repo, "commit-tree", made, "-m", message,
                    *(["-p", parent] if parent else [])).strip()


def working_tree(repo: str) -> str:
    """The working tree as a commit on HEAD that no ref points to (git's gc removes it)."""
    return commit(repo, git.text(repo, "rev-parse", "HEAD").strip(), "the working tree")
