"""Which commits a push asks the gate to judge, and against what.

In order: pre-commit's `PRE_COMMIT_FROM_REF`/`PRE_COMMIT_TO_REF`; else the lines git gives a
pre-push hook on stdin (`<local ref> <local sha> <remote ref> <remote sha>`); else, for a run
by hand, the merge base of HEAD with its upstream branch, or with `origin/HEAD`.

A new branch has no remote SHA. As pre-commit does, its base is the parent of the first
commit that no branch of the remote holds yet; a push that brings the whole history (the root
commit too) has nothing to be judged against, and is said so.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from gate.errors import GateError
from gate.vcs import git


@dataclasses.dataclass(frozen=True)
class Range:
    base: str  # the SHA judged against
    head: str  # the SHA judged
    ref: str  # what is pushed, for messages


@dataclasses.dataclass(frozen=True)
class Push:
    ranges: tuple[Range, ...]
    notes: tuple[str, ...] = ()  # why a pushed ref is not judged


def _is_zero(sha: str) -> bool:
    return set(sha) == {"0"}


def _commit(repo: str, ref: str) -> str | None:
    out = git.run(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    return out.decode().strip() or None


def _new_branch(repo: str, remote: str, local_ref: str, local_sha: str) -> Range | str:
    """The range of a ref whose commits the remote does not have, or why there is none."""
    out = git.text(repo, "rev-list", "--topo-order", "--reverse", local_sha, "--not",
                   f"--remotes={remote}")
    new = out.split()
    if not new:
        return f"{local_ref}: every commit is already on {remote}; nothing new to judge"
    parent = _commit(repo, f"{new[0]}^")
    if parent is None:
        return (f"{local_ref}: the push brings the whole history (its root commit too), so "
                "there is no base to judge it against; judge it with `gate run --base REF`")
    return Range(parent, local_sha, local_ref)


def from_push_lines(repo: str, remote: str, lines: Sequence[str]) -> Push:
    """The ranges of the lines git writes to a pre-push hook's stdin."""
    ranges: list[Range] = []
    notes: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4:
            raise GateError(f"unexpected pre-push input {line!r}: git writes "
                            "`<local ref> <local sha> <remote ref> <remote sha>` lines")
        local_ref, local_sha, remote_ref, remote_sha = parts
        if _is_zero(local_sha):
            notes.append(f"{remote_ref}: deleted on {remote}; nothing to judge")
        elif not _is_zero(remote_sha) and _commit(repo, remote_sha) is not None:
            ranges.append(Range(remote_sha, local_sha, local_ref))
        else:
            found = _new_branch(repo, remote, local_ref, local_sha)
            if isinstance(found, Range):
                ranges.append(found)
            else:
                notes.append(found)
    return Push(tuple(ranges), tuple(notes))


def from_upstream(repo: str) -> Range:
    """HEAD against its merge base with the upstream branch, else with origin/HEAD."""
    head = _commit(repo, "HEAD")
    if head is None:
        raise GateError("HEAD has no commit yet: commit something, then push")
    for ref in ("@{upstream}", "origin/HEAD"):
        sha = _commit(repo, ref)
        if sha is not None:
            return Range(git.merge_base(repo, sha, head), head, "HEAD")
    raise GateError(
        "no base to judge HEAD against: the branch has no upstream and there is no origin/HEAD. "
        "Set one (`git branch --set-upstream-to origin/main`, or `git remote set-head origin "
        "--auto`), or run `gate run --base REF`")


def plan(repo: str, environ: Mapping[str, str], remote: str | None,
         lines: Sequence[str]) -> Push:
    """What a push asks to judge: from pre-commit's variables, git's stdin lines (when git
    named the `remote`), or the upstream branch."""
    from_ref = environ.get("PRE_COMMIT_FROM_REF")
    to_ref = environ.get("PRE_COMMIT_TO_REF")
    if from_ref and to_ref:
        return Push((Range(from_ref, to_ref, environ.get("PRE_COMMIT_LOCAL_BRANCH", to_ref)),))
    if remote is not None:
        return from_push_lines(repo, remote, lines)
    if environ.get("PRE_COMMIT_REMOTE_NAME"):  # pre-commit, pushing the root commit
        branch = environ.get("PRE_COMMIT_LOCAL_BRANCH", "HEAD")
        return Push((), (f"{branch}: the push brings the whole history (its root commit too), "
                         "so there is no base to judge it against; judge it with "
                         "`gate run --base REF`",))
    return Push((from_upstream(repo),))
