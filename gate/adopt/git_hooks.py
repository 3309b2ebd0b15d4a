"""Plain git hooks, for a repository without the pre-commit framework: `gate init --git-hooks`
writes them into the repository's hooks directory (`git rev-parse --git-path hooks`, which
honours `core.hooksPath`). They ship in the package, so they reach a user who installed the
gate from the package index; `hooks/` at the top of this project holds the same two files."""
from __future__ import annotations

import os
import stat

from gate.adopt import release
from gate.errors import GateError
from gate.vcs import git

# What a user without the gate on PATH is told: before the first release the index has no
# `agent-test-gate`, and the gate installs from a clone.
_INSTALL = (f"pip install {release.DISTRIBUTION}" if release.released() else
            "pip install /path/to/a/clone/of/gate (git clone it first)")
_NOT_FOUND = ('command -v gate >/dev/null 2>&1 || { echo "gate: not on PATH: '
              f'{_INSTALL}" >&2; exit 1; }}\n')
HOOKS = {
    "pre-commit": (
        "#!/bin/sh\n"
        "# gate's pre-commit hook, for a repository without the pre-commit framework.\n"
        "# Install it with `gate init --git-hooks`. It runs the gate's diff checks on the\n"
        "# staged change (what the commit records) against HEAD.\n"
        + _NOT_FOUND + "exec gate hook pre-commit\n"),
    "pre-push": (
        "#!/bin/sh\n"
        "# gate's pre-push hook, for a repository without the pre-commit framework.\n"
        "# Install it with `gate init --git-hooks`. It runs the whole gate on what is pushed;\n"
        "# git passes the remote as arguments, the refs on stdin.\n"
        + _NOT_FOUND + 'exec gate hook pre-push "$@"\n'),
}


def hooks_dir(root: str) -> str:
    path = git.text(root, "rev-parse", "--git-path", "hooks").strip()
    return path if os.path.isabs(path) else os.path.join(root, path)


def _existing(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def check(root: str, force: bool = False) -> None:
    """GateError naming a hook of another tool that `install` would replace (unless
    `force`): said before anything is written."""
    for name, content in HOOKS.items():
        path = os.path.join(hooks_dir(root), name)
        existing = _existing(path)
        if existing is not None and existing != content and not force:
            raise GateError(f"{path} is already a hook of another tool: chain `gate hook {name}` "
                            "from it by hand, or replace it with `gate init --git-hooks --force`")


def install(root: str, force: bool = False) -> list[str]:
    """Write both hooks, executable; the paths written. A different hook already there is
    kept (GateError naming it) unless `force`; the same one is left as it is."""
    check(root, force)
    where = hooks_dir(root)
    os.makedirs(where, exist_ok=True)
    written = []
    for name, content in HOOKS.items():
        path = os.path.join(where, name)
        if _existing(path) == content:
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        written.append(path)
    return written
