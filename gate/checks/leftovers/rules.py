"""Leftovers by their path alone: pattern tables, no git."""
from __future__ import annotations

import fnmatch
import functools
import posixpath
import re

BUILD_DIRS = frozenset({"build", "dist", "__pycache__", "node_modules", "target", ".eggs",
                        ".tox", ".nox", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                        "htmlcov", "test-results", ".venv", "venv", "site-packages", ".next",
                        ".turbo", ".parcel-cache", ".gradle", ".nyc_output", "lcov-report"})
BUILD_SUFFIXES = (".egg-info",)
BACKUPS = ("*.bak", "*.orig", "*.rej", "*.patch", "*~", "*.swp", "*.old", "*.backup",
           "* copy.*", "*_backup.*")
ARTEFACTS = (".ds_store", "thumbs.db", "nohup.out", "*.pyc", "*.pyo")
# What a test or coverage run writes: its report, not the project's.
REPORTS = ("junit*.xml", "*.junit.xml", "test-results*.xml", "test-report*.xml", "coverage.xml",
           "cobertura*.xml", "lcov.info", ".coverage", ".coverage.*", "coverage-final.json")
# Lockfiles by package manager, in families of managers that do the same job.
LOCKFILES: dict[str, tuple[str, str]] = {
    "package-lock.json": ("npm", "js"), "npm-shrinkwrap.json": ("npm", "js"),
    "yarn.lock": ("yarn", "js"), "pnpm-lock.yaml": ("pnpm", "js"), "bun.lockb": ("bun", "js"),
    "bun.lock": ("bun", "js"), "poetry.lock": ("poetry", "python"), "uv.lock": ("uv", "python"),
    "Pipfile.lock": ("pipenv", "python"), "pdm.lock": ("pdm", "python"),
}
SCRATCH = ("reproduce*", "reproduction*", "repro", "repro_*", "repro-*", "scratch*")  # anywhere
LOOSE_SCRATCH = ("debug_*", "debug-*", "tmp", "temp", "tmp_*", "temp_*")  # outside the source
ROOT_SCRATCH = ("verify_*", "check_*", "try_*", "test", "foo", "sandbox*", "playground*",
                "bug_*", "issue_*", "fix_*", "quick_*")  # scratch only at the root
SHELL = (".sh", ".bash", ".zsh", ".bat", ".cmd", ".ps1")
DATA = (".csv", ".tsv", ".ecsv", ".fits", ".fit", ".npy", ".npz", ".pkl", ".pickle", ".h5",
        ".hdf5", ".parquet", ".feather", ".dat", ".db", ".sqlite", ".sqlite3", ".log", ".out",
        ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".pdf", ".zip", ".tar", ".gz", ".tgz", ".whl",
        ".so", ".dylib", ".dll", ".exe", ".o", ".a", ".pyc", ".class", ".jar")
# Directories of a test tree that hold what the tests read, not test code.
DATA_DIRS = frozenset({"data", "fixtures", "fixture", "files", "resources", "samples", "sample",
                       "snapshots", "expected", "golden", "assets", "testdata", "__snapshots__",
                       "__fixtures__", "cases", "inputs", "input", "outputs", "output"})
SCRIPT_DIRS = frozenset({"scripts", "script", "tools", "tool", "bin", "dev", "hack", "misc"})
CODE = (".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".go", ".rs", *SHELL)


@functools.cache
def _pattern(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """A table of globs as one regular expression (50,000 added files are read in a blink)."""
    return re.compile("|".join(fnmatch.translate(p) for p in patterns))


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return _pattern(patterns).match(name.lower()) is not None


def build_dir(path: str) -> str | None:
    """The build-output directory `path` lies in (`pkg/build/lib/x.py` -> `pkg/build`)."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part in BUILD_DIRS or part.endswith(BUILD_SUFFIXES):
            return "/".join(parts[:i + 1])
    return None


def is_backup(path: str) -> bool:
    return _matches(posixpath.basename(path), BACKUPS)


def is_report(path: str) -> bool:
    return _matches(posixpath.basename(path), REPORTS)


def is_artefact(path: str) -> bool:
    return _matches(posixpath.basename(path), ARTEFACTS)


def scratch_part(path: str) -> tuple[str, bool] | None:
    """The scratch-named file or directory on `path` (`reproduction/test_x.py` ->
    `reproduction`): a script by its name, or a directory of them; and whether the name is
    scratch wherever it lies (`reproduce_bug.py`), not only outside the source (`debug_x.py`)."""
    parts = path.split("/")
    for i, part in enumerate(parts):
        is_file = i == len(parts) - 1
        if is_file and not part.lower().endswith(CODE):
            continue
        stem = part if not is_file else posixpath.splitext(part)[0]
        strong = _matches(stem, SCRATCH)
        if strong or _matches(stem, LOOSE_SCRATCH) or (
                i == 0 and is_file and _matches(stem, ROOT_SCRATCH)):
            return "/".join(parts[:i + 1]), strong
    return None


def is_shell(path: str) -> bool:
    return path.lower().endswith(SHELL)


def is_data(path: str) -> bool:
    return path.lower().endswith(DATA)


def in_data_dir(path: str) -> bool:
    return any(part.lower() in DATA_DIRS for part in path.split("/")[:-1])


def in_script_dir(path: str) -> bool:
    return any(part in SCRIPT_DIRS for part in path.split("/")[:-1])


def kept(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether `path`, or a directory it lies in, matches one of the `keep` globs."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(prefix, pattern.rstrip("/"))
               for pattern in patterns for prefix in prefixes)
