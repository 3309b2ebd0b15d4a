"""git's failures are GitError, a GateError that callers able to do without git's answer catch
without swallowing every other GateError."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate.errors import GateError, GitError
from gate.vcs import git


def test_a_failing_git_command_raises_git_error_with_its_exit_and_stderr(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    with pytest.raises(GitError) as raised:
        git.run(str(repo.path), "rev-parse", "--verify", "no-such-ref")
    assert raised.value.returncode == 128
    assert "no-such-ref" in str(raised.value)
    assert isinstance(raised.value, GateError)


def test_an_unknown_ref_is_a_gate_error_that_says_what_to_do(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({"a.txt": "a\n"})
    with pytest.raises(GateError) as raised:
        git.resolve_commit(str(repo.path), "no-such-ref")
    assert not isinstance(raised.value, GitError)
    assert "unknown ref 'no-such-ref': no branch, tag or commit" in str(raised.value)
