"""Real git repositories for tests: a base commit, then a head commit on a branch."""
from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=self.path, check=True, text=True,
            capture_output=True,
        ).stdout

    def write(self, files: Mapping[str, str | None]) -> None:
        """Write files (None deletes one)."""
        for rel, content in files.items():
            target = self.path / rel
            if content is None:
                if target.exists():
                    target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)

    def commit(self, files: Mapping[str, str | None], message: str = "change") -> str:
        self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def branch(self, name: str) -> None:
        self.git("checkout", "-q", "-b", name)

    def snapshot(self) -> dict[str, object]:
        """Everything a gate run must leave as it was."""
        files = {}
        for root, dirs, names in os.walk(self.path):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in names:
                full = Path(root) / name
                files[str(full.relative_to(self.path))] = full.read_bytes()
        git_dir = self.path / ".git"
        return {
            "status": self.git("status", "--porcelain=v1", "--untracked-files=all"),
            "head": self.git("rev-parse", "HEAD"),
            "refs": self.git("for-each-ref"),
            "stash": self.git("stash", "list"),
            "worktrees": self.git("worktree", "list", "--porcelain"),
            "index": (git_dir / "index").read_bytes() if (git_dir / "index").exists() else b"",
            "files": files,
        }


def make_change(
    root: Path,
    base: Mapping[str, str | None],
    head: Mapping[str, str | None],
) -> tuple[Repo, str, str]:
    """A repo with `base` committed on main and `head` (changes on top) on branch `change`."""
    repo = Repo(root)
    base_sha = repo.commit(base, "base")
    repo.branch("change")
    head_sha = repo.commit(head, "head")
    return repo, base_sha, head_sha


@contextlib.contextmanager
def isolated_home(home: Path, wheelhouse: Path | None = None) -> Iterator[pytest.MonkeyPatch]:
    """What conftest's `isolated_git` (and, given the wheelhouse, `offline_pip`) set, for
    module-scoped fixtures, which run before the function-scoped ones."""
    with pytest.MonkeyPatch.context() as mp:
        home.mkdir(parents=True, exist_ok=True)
        (home / ".gitconfig").write_text("[user]\n\tname = Test\n\temail = test@example.com\n"
                                         "[init]\n\tdefaultBranch = main\n")
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        if wheelhouse is not None:
            mp.setenv("PIP_FIND_LINKS", str(wheelhouse))
            mp.setenv("PIP_NO_INDEX", "1")
            mp.setenv("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        yield mp
