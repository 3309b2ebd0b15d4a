"""How many times a branch was submitted against a base: kept in the repository's git dir
(`.git/gate/attempts.json`), outside every checkout the gate makes, and kept read-only to the
judged code by the isolation boundary (`directory` is in what the gate protects)."""
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


def directory(repo: str) -> str:
    """`gate/` in the repository's common git dir (shared by its worktrees)."""
    common = git.text(repo, "rev-parse", "--git-common-dir").strip()
    return os.path.join(os.path.abspath(os.path.join(repo, common)), "gate")


def _path(repo: str) -> str:
    return os.path.join(directory(repo), "attempts.json")


def _key(branch: str, base: str) -> str:
    return f"{branch} -> {base}"


def _all(repo: str) -> dict[str, Any]:
    try:
        with open(_path(repo), encoding="utf-8") as f:
            data = json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def read(repo: str, branch: str, base: str) -> Attempts:
    entry = _all(repo).get(_key(branch, base))
    if not isinstance(entry, dict):
        return Attempts()
    fields = {f.name for f in dataclasses.fields(Attempts)}
    return Attempts(**{k: v for k, v in entry.items() if k in fields})


def record(repo: str, branch: str, base: str, verdict: str | None, fault: str,
           head: str) -> Attempts:
    """One more attempt, with its outcome; written beside the file, then renamed over it."""
    data = _all(repo)
    done = Attempts(read(repo, branch, base).used + 1, verdict, fault, head)
    data[_key(branch, base)] = dataclasses.asdict(done)
    os.makedirs(directory(repo), exist_ok=True)
    partial = f"{_path(repo)}.{os.getpid()}.partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(partial, _path(repo))
    return done
