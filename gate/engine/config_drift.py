"""A notice when the gate config in the user's working tree differs from the base's. The
gate reads its config from the base (the head may not weaken its judge), so an edit to
`.gate.toml` or `[tool.gate]` that is only in the working tree, or only on the head, does not
apply yet: said once, before the run, rather than ignored silently."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from gate.engine import config
from gate.errors import GateError
from gate.vcs import git


@dataclasses.dataclass(frozen=True)
class Unreadable:
    message: str


Found = tuple[str, Mapping[str, Any]] | Unreadable | None


def _read(root: str, path: str) -> bytes | None:
    try:
        with open(os.path.join(root, path), "rb") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def _config(blobs: Mapping[str, bytes | None], paths: Sequence[str]) -> Found:
    """The file and table of the config; None without one."""
    try:
        return config.found_table(blobs, "-", paths)
    except GateError as e:
        return Unreadable(str(e))


def notice(root: str, base: str, path: str | None = None) -> str | None:
    """What to tell the user when the working tree's config is not the base's (`path`: the
    `--config` file); None when they agree, compared as parsed tables, so that a comment or
    a reordering is no difference."""
    sha = git.run(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}", check=False)
    if not sha:
        return None  # no such base: the run says so
    base = sha.decode().strip()
    paths = (path,) if path else config.CONFIG_FILES
    blobs = git.read_blobs(root, base, list(paths))
    if path and blobs[path] is None:
        return None  # a --config file missing at the base: the run says what to do
    here = _config({p: _read(root, p) for p in paths}, paths)
    at_base = _config(blobs, paths)
    if here == at_base or isinstance(at_base, Unreadable):
        return None  # an unreadable config at the base: the run itself says what is wrong
    named = [f[0] for f in (here, at_base) if isinstance(f, tuple)]
    name = named[0] if named else next(p for p in paths if _read(root, p) is not None)
    return (f"the gate config in the working tree ({name}) differs from the one at the base "
            f"{base[:12]}, which is the one read (a change may not alter its own gate): "
            "commit it on the base branch for it to apply")
