"""How many times a change was submitted: kept in the repository's git dir
(`.git/gate/attempts.json`), outside every checkout the gate makes, and kept read-only to the
judged code by the isolation boundary (`directory` is in what the gate protects).

A change is where the agent's work leaves the base: the fork point of the base and the
checked-out HEAD (the base's commit itself for work not yet committed). Neither the branch a
submit commits to nor the name given to the base is part of it, so a new `--branch` or another
name for the same base continues the count. Each entry also keeps the lowest cap it was
submitted under: a cap can be lowered for a change, never raised again."""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any

from gate.vcs import git

DEFAULT_CAP = 3


@dataclasses.dataclass(frozen=True)
class Attempts:
    used: int = 0
    last_verdict: str | None = None
    last_fault: str | None = None
    last_head: str | None = None
    cap: int | None = None  # the lowest cap the change was submitted under


def directory(repo: str) -> str:
    """`gate/` in the repository's common git dir (shared by its worktrees)."""
    common = git.text(repo, "rev-parse", "--git-common-dir").strip()
    return os.path.join(os.path.abspath(os.path.join(repo, common)), "gate")


def _path(repo: str) -> str:
    return os.path.join(directory(repo), "attempts.json")


def change_key(repo: str, base_sha: str, head: str | None) -> str:
    """The change's key: `change <fork point>`, the fork point of the base and `head` (the
    agent's checked-out commit; None before the first commit)."""
    fork = git.merge_base(repo, base_sha, head) if head else None
    return f"change {fork or base_sha}"


def _all(repo: str) -> dict[str, Any]:
    try:
        with open(_path(repo), encoding="utf-8") as f:
            data = json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def read(repo: str, key: str) -> Attempts:
    entry = _all(repo).get(key)
    if not isinstance(entry, dict):
        return Attempts()
    fields = {f.name for f in dataclasses.fields(Attempts)}
    return Attempts(**{k: v for k, v in entry.items() if k in fields})


def record(repo: str, key: str, verdict: str | None, fault: str, head: str,
           cap: int) -> Attempts:
    """One more attempt, with its outcome; written beside the file, then renamed over it."""
    data = _all(repo)
    before = read(repo, key)
    done = Attempts(before.used + 1, verdict, fault, head, min(cap, before.cap or cap))
    data[key] = dataclasses.asdict(done)
    os.makedirs(directory(repo), exist_ok=True)
    partial = f"{_path(repo)}.{os.getpid()}.partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(partial, _path(repo))
    return done
