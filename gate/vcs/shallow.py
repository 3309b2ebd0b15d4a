"""Shallow clones (CI checkouts with `fetch-depth: 1`): fetch the history the diff needs.

Where the clone has a remote, a missing `origin/NAME` base is fetched, then history is
deepened (`git fetch --deepen`, then `--unshallow`) until base and head have a merge base.
Without a remote, the gate stops (exit 2) with the command to run.
"""
from __future__ import annotations

import re

from gate.errors import GateError, GitError
from gate.vcs import git

_FULL_SHA = re.compile(r"[0-9a-f]{40}")
DEPTHS = (50, 200, 1000)  # each a `git fetch --deepen`, then `--unshallow` as a last resort


def _commit(repo: str, ref: str) -> str | None:
    if ref.startswith("-"):
        return None
    try:
        return git.text(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
    except GitError:
        return None


def _merge_base(repo: str, a: str, b: str) -> str | None:
    try:
        return git.text(repo, "merge-base", a, b).strip() or None
    except GitError:
        return None


def _remote(repo: str) -> str | None:
    names = git.text(repo, "remote").split()
    return "origin" if "origin" in names else (names[0] if names else None)


def _fetch(repo: str, remote: str, *args: str) -> None:
    try:
        git.run(repo, "-c", "credential.interactive=never", "fetch", "--quiet", "--no-tags",
                *args, remote)
    except GitError as e:
        raise GateError(f"the clone is shallow and fetching history from {remote} failed: "
                        f"{e}. Run `git fetch --unshallow {remote}` and retry") from e


def _fetch_branch(repo: str, remote: str, ref: str) -> bool:
    """Fetch `remote/NAME` when `ref` names one, or the commit when `ref` is a full SHA (a pull
    request event's base SHA, absent from a depth-1 checkout); whether it was fetched."""
    name = ref[len(remote) + 1:] if ref.startswith(remote + "/") else ""
    if name:
        refspec = f"+refs/heads/{name}:refs/remotes/{remote}/{name}"
    elif _FULL_SHA.fullmatch(ref):
        refspec = ref
    else:
        return False
    try:
        git.run(repo, "-c", "credential.interactive=never", "fetch", "--quiet", "--no-tags",
                "--depth=1", remote, refspec)
    except GitError:
        return False
    return True


def ensure_history(repo: str, base: str, head: str) -> str:
    """Make a shallow clone hold what judging `head` against `base` needs; say what was
    fetched ("" when nothing was). A clone that is not shallow is left alone."""
    if not git.is_shallow(repo):
        return ""
    remote = _remote(repo)
    fetched = []
    if remote is not None:
        fetched = [ref for ref in (base, head)
                   if _commit(repo, ref) is None and _fetch_branch(repo, remote, ref)]
    a, b = _commit(repo, base), _commit(repo, head)
    if a is None or b is None or _merge_base(repo, a, b) is not None:
        return f"fetched {', '.join(fetched)} from {remote}" if fetched else ""
    if remote is None:
        raise GateError(
            f"{base} and {head} have no common ancestor in this shallow clone, and it has no "
            "remote to fetch from: run `git fetch --unshallow URL` (or clone again with "
            "`fetch-depth: 0` in actions/checkout)")
    for how in [f"--deepen={depth}" for depth in DEPTHS] + ["--unshallow"]:
        _fetch(repo, remote, how)
        fetched.append(f"history ({how})")
        if _merge_base(repo, a, b) is not None or not git.is_shallow(repo):
            break
    return f"the clone is shallow: fetched {', '.join(fetched)} from {remote}"
