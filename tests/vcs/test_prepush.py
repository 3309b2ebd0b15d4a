"""Which commits a push is judged on: pre-commit's refs, git's pre-push lines, the upstream."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate.errors import GateError
from gate.vcs import prepush

Z40 = "0" * 40


def _pushed(tmp_path: Path) -> tuple[Repo, list[str]]:
    """A clone whose main (2 commits) is on the remote `origin`, with origin/HEAD set."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    repo = Repo(tmp_path / "work")
    shas = [repo.commit({"a.txt": "1\n"}), repo.commit({"a.txt": "2\n"})]
    repo.git("remote", "add", "origin", str(remote))
    repo.git("push", "-q", "origin", "main")
    repo.git("remote", "set-head", "origin", "main")
    return repo, shas


def test_pre_commit_refs_come_first(tmp_path: Path) -> None:
    repo, (one, two) = _pushed(tmp_path)
    env = {"PRE_COMMIT_FROM_REF": one, "PRE_COMMIT_TO_REF": two,
           "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}
    line = f"refs/heads/main {two} refs/heads/main {Z40}"
    assert prepush.plan(str(repo.path), env, "origin", [line]) == prepush.Push(
        (prepush.Range(one, two, "refs/heads/main"),))


def test_an_existing_branch_is_judged_from_the_remote_sha(tmp_path: Path) -> None:
    repo, (_, two) = _pushed(tmp_path)
    three = repo.commit({"a.txt": "3\n"})
    line = f"refs/heads/main {three} refs/heads/main {two}"
    assert prepush.plan(str(repo.path), {}, "origin", [line]) == prepush.Push(
        (prepush.Range(two, three, "refs/heads/main"),))


def test_a_new_branch_is_judged_from_the_parent_of_its_first_new_commit(
        tmp_path: Path) -> None:
    repo, (_, two) = _pushed(tmp_path)
    repo.branch("feature")
    repo.commit({"b.txt": "1\n"})
    four = repo.commit({"b.txt": "2\n"})
    line = f"refs/heads/feature {four} refs/heads/feature {Z40}"
    assert prepush.plan(str(repo.path), {}, "origin", [line]) == prepush.Push(
        (prepush.Range(two, four, "refs/heads/feature"),))


def test_a_remote_sha_unknown_here_is_treated_as_a_new_branch(tmp_path: Path) -> None:
    repo, (_, two) = _pushed(tmp_path)
    three = repo.commit({"a.txt": "3\n"})
    line = f"refs/heads/main {three} refs/heads/main {'e' * 40}"  # someone else pushed
    assert prepush.plan(str(repo.path), {}, "origin", [line]).ranges == (
        prepush.Range(two, three, "refs/heads/main"),)


def test_pushing_the_whole_history_has_no_base(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit({"a.txt": "1\n"})
    head = repo.commit({"a.txt": "2\n"})
    repo.git("remote", "add", "origin", str(tmp_path / "nowhere.git"))
    line = f"refs/heads/main {head} refs/heads/main {Z40}"
    assert prepush.plan(str(repo.path), {}, "origin", [line]) == prepush.Push((), (
        "refs/heads/main: the push brings the whole history (its root commit too), so there "
        "is no base to judge it against; judge it with `gate run --base REF`",))


def test_pre_commit_pushing_the_root_commit_is_said_so(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit({"a.txt": "1\n"})
    env = {"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}
    assert prepush.plan(str(repo.path), env, None, []) == prepush.Push((), (
        "refs/heads/main: the push brings the whole history (its root commit too), so there "
        "is no base to judge it against; judge it with `gate run --base REF`",))


def test_deleted_and_already_pushed_refs_are_not_judged(tmp_path: Path) -> None:
    repo, (_, two) = _pushed(tmp_path)
    lines = [f"(delete) {Z40} refs/heads/old {two}",
             f"refs/heads/copy {two} refs/heads/copy {Z40}", ""]
    assert prepush.plan(str(repo.path), {}, "origin", lines) == prepush.Push((), (
        "refs/heads/old: deleted on origin; nothing to judge",
        "refs/heads/copy: every commit is already on origin; nothing new to judge"))


def test_a_malformed_line_is_an_error(tmp_path: Path) -> None:
    repo, _ = _pushed(tmp_path)
    with pytest.raises(GateError, match="unexpected pre-push input 'refs/heads/main abc'"):
        prepush.plan(str(repo.path), {}, "origin", ["refs/heads/main abc"])


def test_by_hand_the_upstream_branch_is_the_base(tmp_path: Path) -> None:
    repo, _ = _pushed(tmp_path)
    repo.branch("feature")
    three = repo.commit({"a.txt": "3\n"})
    repo.git("push", "-q", "-u", "origin", "feature")  # upstream at three, origin/HEAD at two
    four = repo.commit({"a.txt": "4\n"})
    assert prepush.plan(str(repo.path), {}, None, []) == prepush.Push(
        (prepush.Range(three, four, "HEAD"),))


def test_by_hand_without_upstream_origin_head_is_the_base(tmp_path: Path) -> None:
    repo, (one, _) = _pushed(tmp_path)
    repo.git("checkout", "-q", "-b", "side", one)
    side = repo.commit({"s.txt": "1\n"})
    assert prepush.plan(str(repo.path), {}, None, []) == prepush.Push(
        (prepush.Range(one, side, "HEAD"),))


def test_by_hand_without_any_base_says_what_to_do(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit({"a.txt": "1\n"})
    with pytest.raises(GateError) as e:
        prepush.plan(str(repo.path), {}, None, [])
    assert str(e.value) == (
        "no base to judge HEAD against: the branch has no upstream and there is no "
        "origin/HEAD. Set one (`git branch --set-upstream-to origin/main`, or `git remote "
        "set-head origin --auto`), or run `gate run --base REF`")
