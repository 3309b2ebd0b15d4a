"""What the install left behind (the runtime part of `harness`): files in the checkout that git
does not track, or tracked files it changed, where a test runner loads them; and `.pth` or
`sitecustomize` files in the fresh environment that no installed distribution records, or
that the base's install did not have."""
from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Mapping

from gate.execution import judged_files, site_hooks
from gate.models import Finding
from gate.vcs import git

LOADED = ("conftest.py", "pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "tox.ini",
          "setup.cfg", "pyproject.toml", "sitecustomize.py", "usercustomize.py", "jest.config.*",
          "vitest.config.*", "vitest.workspace.*", ".mocharc*", "jest.setup.*", "vitest.setup.*")
CHECK_ID = "harness"  # not imported from .check: the runtime does not load the diff checks
TEST_DIRS = ("tests", "test", "testing", "__tests__")


def _loaded(path: str) -> bool:
    name = posixpath.basename(path)
    parts = path.split("/")[:-1]
    return (any(fnmatch.fnmatch(name, pattern) for pattern in LOADED)
            or (name.endswith(".py") and any(p in TEST_DIRS for p in parts)))


def in_checkout(checkout: str) -> list[Finding]:
    """Files the install wrote or changed in the checkout that a test runner loads; and what
    it left there that is no file (a FIFO, a device, a link to one), removed first, since the
    gate reads the checkout after the install (an open of a FIFO would wait for ever)."""
    changed = git.worktree_changes(checkout)
    special = judged_files.remove_special(checkout, changed)
    return [Finding(path, 1, "install-left-files",
                    f"the install left `{path}` in the checkout, a FIFO, a device or a link to "
                    "one, not a file: the gate removed it before reading the checkout", "error")
            for path in special] + [
        Finding(path, 1, "install-left-files",
                f"the install left `{path}` in the checkout, where the test runner loads it, "
                "and git does not track it as it is: it changes how the tests run without "
                "being part of the change", "error")
        for path in changed if _loaded(path) and path not in special]


def in_environment(env: Mapping[str, str], before: set[str]) -> list[Finding]:
    """Site hooks the install made that no distribution's RECORD lists and that run code."""
    recorded = site_hooks.recorded(env)
    out = []
    for path in sorted(site_hooks.present(env) - before):
        if os.path.normpath(path) not in recorded and site_hooks.runs_code(path):
            name = "site-packages/" + os.path.basename(path)
            out.append(Finding(name, 1, "install-site-hook",
                               f"the install wrote {os.path.basename(path)} into the fresh "
                               "environment (no installed package records it): the interpreter "
                               "runs it at every start, test runs included", "error"))
    return out


def new_since_base(env: Mapping[str, str], before: set[str],
                   base: tuple[str, ...] | None) -> list[Finding]:
    """Site hooks that run code, installed as files (a RECORD lists them: `in_environment`
    names the others) and that the base's install did not make: a package the change brings
    in that runs code at every interpreter start. None for `base`: not known (no finding)."""
    if base is None:
        return []
    known = set(base)
    recorded = site_hooks.recorded(env)
    out = []
    for path in sorted(site_hooks.present(env) - before):
        hook = site_hooks.name(path)
        if (hook not in known and os.path.normpath(path) in recorded
                and site_hooks.runs_code(path)):
            out.append(Finding("site-packages/" + os.path.basename(path), 1,
                               "install-site-hook",
                               f"the head's install put {os.path.basename(path)} into the fresh "
                               "environment and the base's did not (a package the change brings "
                               "in ships it): the interpreter runs it at every start, test runs "
                               "included", "error"))
    return out
