"""The install and test commands detected from the base's files, without a checkout: what
the base's run uses and its cache entry is keyed by, and the test command of every run of
the judged tests, the head's too.

The head does not choose the command that judges it. Like the gate's configuration (read
from the base), the detected test command follows the base's files: its pytest
configuration, the directories its CI and tox name to pytest (`ci_paths`), its package.json
having a test script. A head that narrowed its workflow's `pytest tests/` to `pytest
tests/unit` would otherwise have narrowed the suite the gate runs; now it runs the base's,
and `check-config` names the workflow's change. Where the base's files imply no test command
(a base with no tests yet), the head's checkout says."""
from __future__ import annotations

import contextlib
import os
import posixpath
import tempfile
from collections.abc import Iterator

from gate.execution.environment import CiEnvironment
from gate.outcomes import ci_env, detect
from gate.vcs import git

WORKFLOWS = ".github/workflows/"  # detection reads them: CI's pytest paths, the tests' extras


@contextlib.contextmanager
def laid_out(repo: str, sha: str) -> Iterator[str]:
    """A temporary directory with what detection reads of commit `sha`: its top files, its
    workflows and its directories (empty), removed after."""
    tracked = git.ls_files(repo, sha)
    names = git.top_files(repo, sha) + [p for p in tracked if p.startswith(WORKFLOWS)]
    with tempfile.TemporaryDirectory(prefix="gate-base-files-") as root:
        os.makedirs(os.path.join(root, WORKFLOWS))
        for directory in {posixpath.dirname(p) for p in tracked} - {""}:
            os.makedirs(os.path.join(root, directory), exist_ok=True)  # CI names them to pytest
        for name, blob in git.read_blobs(repo, sha, names).items():
            if blob is not None and os.path.dirname(name) in ("", WORKFLOWS.rstrip("/")):
                with open(os.path.join(root, name), "wb") as f:
                    f.write(blob)
        yield root


def resolved(repo: str, sha: str, install: str | None, test: str | None,
             ) -> tuple[str | None, str | None]:
    """The commands as the run of commit `sha` has them: what the config gives (not None),
    else what its files imply."""
    if install is not None and test is not None:
        return install, test
    with laid_out(repo, sha) as root:
        return (install or detect.install_command(root), test or detect.test_command(root))


def test_command(repo: str, base_sha: str, configured: str | None, checkout: str) -> str | None:
    """The test command of the judged runs: the configured one, else the one the base's files
    imply, else (the base implies none) the one the `checkout` implies."""
    if configured is not None:
        return configured
    with laid_out(repo, base_sha) as root:
        return detect.test_command(root) or detect.test_command(checkout)


def ci_variables(repo: str, base_sha: str) -> CiEnvironment:
    """What the base's own CI gives its tests (`ci_env`: what its test job sets, what tox
    passes and sets): the judged commands of both sides see it, whatever the head's files
    say."""
    with laid_out(repo, base_sha) as root:
        return ci_env.for_tests(root)


def python_version(repo: str, base_sha: str) -> str | None:
    """The Python version the base's tox environment or nox session names ("3.12"), where
    its tests run through one."""
    with laid_out(repo, base_sha) as root:
        through = ci_env.tool(root)
        return through.python if through else None
