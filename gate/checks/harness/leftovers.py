"""What the install left behind (the runtime part of `harness`): files in the checkout that git
does not track, or tracked files it changed, where a test runner loads them; and `.pth` or
`sitecustomize` files in the fresh environment that no installed distribution records."""
from __future__ import annotations

import fnmatch
import glob
import os
import posixpath
from collections.abc import Mapping

from gate.models import Finding
from gate.vcs import git

LOADED = ("conftest.py", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml",
          "sitecustomize.py", "usercustomize.py", "jest.config.*", "vitest.config.*",
          "vitest.workspace.*", ".mocharc*", "jest.setup.*", "vitest.setup.*")
CHECK_ID = "harness"  # not imported from .check: the runtime does not load the diff checks
TEST_DIRS = ("tests", "test", "testing", "__tests__")
SITE_HOOKS = ("*.pth", "sitecustomize.py", "usercustomize.py")


def _loaded(path: str) -> bool:
    name = posixpath.basename(path)
    parts = path.split("/")[:-1]
    return (any(fnmatch.fnmatch(name, pattern) for pattern in LOADED)
            or (name.endswith(".py") and any(p in TEST_DIRS for p in parts)))


def in_checkout(checkout: str) -> list[Finding]:
    """Files the install wrote or changed in the checkout that a test runner loads."""
    return [Finding(path, 1, "install-left-files",
                    f"the install left `{path}` in the checkout, where the test runner loads it, "
                    "and git does not track it as it is: it changes how the tests run without "
                    "being part of the change", "error")
            for path in git.worktree_changes(checkout) if _loaded(path)]


def _site_packages(env: Mapping[str, str]) -> list[str]:
    venv = env.get("VIRTUAL_ENV")
    if not venv:
        return []
    return sorted(glob.glob(os.path.join(venv, "lib", "python*", "site-packages"))
                  + glob.glob(os.path.join(venv, "Lib", "site-packages")))


def site_hooks(env: Mapping[str, str]) -> set[str]:
    """The .pth, sitecustomize and usercustomize files of the environment, now."""
    return {path for site in _site_packages(env) for pattern in SITE_HOOKS
            for path in glob.glob(os.path.join(site, pattern))}


def _recorded(site: str) -> set[str]:
    out: set[str] = set()
    for record in glob.glob(os.path.join(site, "*.dist-info", "RECORD")):
        with open(record, encoding="utf-8", errors="replace") as f:
            out.update(os.path.normpath(os.path.join(site, line.split(",")[0]))
                       for line in f if line.strip())
    return out


def _runs_code(path: str) -> bool:
    """A .pth file runs its lines that start with `import`; a customize module always runs."""
    if not path.endswith(".pth"):
        return True
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(line.startswith(("import ", "import\t")) for line in f)


def in_environment(env: Mapping[str, str], before: set[str]) -> list[Finding]:
    """Site hooks the install made that no distribution's RECORD lists and that run code."""
    recorded = {p for site in _site_packages(env) for p in _recorded(site)}
    out = []
    for path in sorted(site_hooks(env) - before):
        if os.path.normpath(path) not in recorded and _runs_code(path):
            name = "site-packages/" + os.path.basename(path)
            out.append(Finding(name, 1, "install-site-hook",
                               f"the install wrote {os.path.basename(path)} into the fresh "
                               "environment (no installed package records it): the interpreter "
                               "runs it at every start, test runs included", "error"))
    return out
