"""`gate init --git-hooks`: the plain git hooks, shipped in the package, written into the
repository's hooks directory; hooks/ at the top of this project holds the same files."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate import cli
from gate.adopt import git_hooks

PROJECT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(git_hooks.HOOKS))
def test_the_hooks_directory_holds_the_hooks_the_package_ships(name: str) -> None:
    assert (PROJECT / "hooks" / name).read_text() == git_hooks.HOOKS[name]


def test_init_with_git_hooks_writes_both_executable_and_no_precommit_config(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({"pyproject.toml": "[project]\nname = 'x'\n"})
    assert cli.main(["init", "--git-hooks", "--repo", str(repo.path)]) == 0
    for name, content in git_hooks.HOOKS.items():
        hook = repo.path / ".git" / "hooks" / name
        assert hook.read_text() == content
        assert os.access(hook, os.X_OK)
    assert not (repo.path / ".pre-commit-config.yaml").exists()
    assert "gate init: wrote the git hook .git/hooks/pre-push" in capsys.readouterr().out
    assert cli.main(["init", "--git-hooks", "--repo", str(repo.path)]) == 0  # again: the same


def test_the_hooks_go_where_core_hookspath_says(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.git("config", "core.hooksPath", "githooks")
    git_hooks.install(str(repo.path))
    assert sorted(p.name for p in (repo.path / "githooks").iterdir()) == sorted(git_hooks.HOOKS)


def test_a_hook_of_another_tool_is_kept_unless_forced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    theirs = repo.path / ".git" / "hooks" / "pre-commit"
    theirs.write_text("#!/bin/sh\nmake lint\n")
    assert cli.main(["init", "--git-hooks", "--repo", str(repo.path)]) == 2
    assert capsys.readouterr().err == (
        f"gate: error: {theirs} is already a hook of another tool: chain `gate hook "
        "pre-commit` from it by hand, or replace it with `gate init --git-hooks --force`\n")
    assert theirs.read_text() == "#!/bin/sh\nmake lint\n"
    assert repo.git("status", "--porcelain") == ""  # nothing else was written either
    assert cli.main(["init", "--git-hooks", "--force", "--repo", str(repo.path)]) == 0
    assert theirs.read_text() == git_hooks.HOOKS["pre-commit"]


def test_the_readmes_local_hooks_run_the_gate_through_pre_commit(tmp_path: Path) -> None:
    """The README's `repo: local` config, before the first release: real pre-commit takes it
    and runs the gate's scan on a commit."""
    import re
    import subprocess
    import sys

    readme = (PROJECT / "README.md").read_text()
    block = re.search(r"\n    default_install_hook_types:.*?\n\n", readme, re.S)
    assert block is not None
    config = "\n".join(line[4:] for line in block.group(0).strip("\n").splitlines()) + "\n"
    repo = Repo(tmp_path / "r")
    repo.commit({".pre-commit-config.yaml": config, "a.py": "x = 1\n"})
    (repo.path / "a.py").write_text("x = 2  # noqa\n")
    repo.git("add", "a.py")
    bindir = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ["PATH"],
           "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    done = subprocess.run([os.path.join(bindir, "pre-commit"), "run", "--hook-stage",
                           "pre-commit"], cwd=repo.path, env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr  # the new escape holds the commit
    assert "a.py:1: escapes: new" in done.stdout
