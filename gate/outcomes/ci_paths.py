"""The directories a project's own CI and tox give pytest: the suite the detected test
command runs where the pytest configuration sets no `testpaths`.

pytest run from the root with no paths collects every directory: the conftest.py files and
test files of benchmarks, docs and scripts too. markdown-it-py's CI and tox run
`pytest tests/`; from the root, pytest imports benchmarking/conftest.py, whose hook needs
pytest-benchmark (an extra its tests do not install), and the whole run stops at collection,
at base and at head alike. Read here: `.github/workflows/*.yml` (`*.yaml`) and tox.ini, a line
at a time, each pytest invocation on it (`pytest_command.invocations`); tox's `{posargs:X}`
is its default, X. A directory counts where it is one of the checkout's (no `..`, no
absolute path) and is not the value of an option (`-k tests`)."""
from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator

from gate.execution import judged_files
from gate.lang import pytest_config
from gate.outcomes import ci_env, pytest_command

_POSARGS = re.compile(r"\{posargs(?::([^}]*))?\}")
_PREFIX = re.compile(r"^\s*(?:-\s+)?(?:run:|commands\s*=)?\s*")
# pytest's options whose value is the next word: the value is no test path.
_TAKES_VALUE = frozenset((
    "-k", "-m", "-p", "-c", "-o", "-n", "-W", "--ignore", "--ignore-glob", "--deselect",
    "--rootdir", "--confcutdir", "--basetemp", "--junitxml", "--junit-xml", "--tb",
    "--maxfail", "--cov", "--cov-config", "--cov-report", "--override-ini"))
_MAX = 1 << 20


def _sources(root: str) -> list[str]:
    workflows = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.y*ml")))
    return [*workflows, os.path.join(root, "tox.ini")]


def _lines(root: str) -> Iterator[str]:
    for path in _sources(root):
        text = (judged_files.read(path, _MAX) or b"").decode("utf-8", "replace")
        for line in text.splitlines():
            yield _POSARGS.sub(lambda m: m.group(1) or "", _PREFIX.sub("", line, count=1))


def _directory(root: str, word: str) -> str | None:
    path = os.path.normpath(word)
    if os.path.isabs(path) or path == "." or path.split(os.sep)[0] == "..":
        return None
    return path if os.path.isdir(os.path.join(root, path)) and not re.search(r"\s", path) \
        else None


def named_dirs(root: str) -> tuple[str, ...]:
    """The checkout's directories that the project's CI, tox and nox name to pytest, in the
    order first named."""
    found: dict[str, None] = {}
    through = ci_env.pytest_args(root)
    for line in _lines(root):
        for args in [*pytest_command.invocations(line), list(through or ())]:
            for before, word in zip(["", *args], args, strict=False):
                if word.startswith("-") or before in _TAKES_VALUE:
                    continue
                directory = _directory(root, word)
                if directory is not None:
                    found[directory] = None
    return tuple(found)


def _read(root: str, names: list[str] | tuple[str, ...]) -> dict[str, bytes | None]:
    return {name: judged_files.read(os.path.join(root, name), _MAX) for name in names}


def testpaths(root: str) -> tuple[str, ...]:
    """The directories the detected test command gives pytest as `testpaths`: those the
    project's CI and tox name, where its pytest configuration sets no `testpaths` (then that
    decides); () where none is named."""
    config = pytest_config.find(lambda names: _read(root, tuple(names)))
    if "testpaths" in config.options:
        return ()
    return named_dirs(root)


# pytest's own options that say which tests run and how they are judged: kept from the
# command the project's CI runs. Reporting, coverage, parallelism and stopping early
# (`-v`, `--cov`, `-n`, `-x`) are the gate's to choose; a plugin's option would need the
# plugin, which the detected install may lack; `-k` picks tests by name, a narrowing for
# one step (the gate judges the suite).
_KEPT = frozenset(("--doctest-modules", "--doctest-continue-on-failure",
                   "--doctest-ignore-import-errors", "--strict-markers", "--strict-config",
                   "--strict", "--runxfail", "--pyargs", "--noconftest"))
_KEPT_WITH_VALUE = frozenset(("-p", "-m", "-W", "-o", "--override-ini", "--ignore",
                              "--ignore-glob", "--deselect", "--doctest-glob", "--import-mode",
                              "--pythonwarnings", "--doctest-report"))


def options(root: str) -> tuple[str, ...]:
    """The options of pytest's own that the project's CI gives it (its test step's pytest,
    or its tox environment's or nox session's) and that say which tests run and how:
    `--doctest-modules`, `-p`, `-m`, `--ignore`, ...; () where it gives none."""
    args = iter(ci_env.pytest_args(root) or ())
    kept: list[str] = []
    for word in args:
        name, eq, _ = word.partition("=")
        if word in _KEPT_WITH_VALUE:
            kept += [word, next(args, "")]
        elif word in _KEPT or (eq and name in _KEPT_WITH_VALUE) or re.fullmatch(
                r"-[pmW]\S+", word):
            kept.append(word)
        elif word in _TAKES_VALUE:
            next(args, None)  # its value is no option
    return tuple(w for w in kept if w)
