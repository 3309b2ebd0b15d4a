"""Which files hold tests, per language, as the common runners discover them by default."""
from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Sequence

from gate.lang.languages import JAVASCRIPT_FAMILY

INFRASTRUCTURE = ("conftest.py",)


def is_python_test(path: str, python_files: Sequence[str]) -> bool:
    name = posixpath.basename(path)
    return path.endswith(".py") and any(fnmatch.fnmatch(name, p) for p in python_files)


def is_test_file(
    path: str,
    *,
    python_files: Sequence[str],
    test_paths: Sequence[str] = (),
) -> bool:
    """True if `path` holds tests. `test_paths` (config globs) replace the defaults."""
    if test_paths:
        return any(fnmatch.fnmatch(path, pattern) for pattern in test_paths)
    name = posixpath.basename(path)
    stem, ext = posixpath.splitext(name)
    parts = path.split("/")
    if ext == ".py":
        return is_python_test(path, python_files)
    if ext in JAVASCRIPT_FAMILY:
        return (
            stem.endswith((".test", ".spec"))
            or "__tests__" in parts[:-1]
            or (parts[0] in ("test", "tests") and len(parts) > 1)
            # AVA's defaults (and many a small package's one file): test.js, test-*.js
            or stem in ("test", "tests") or stem.startswith("test-")
        )
    if ext == ".go":
        return name.endswith("_test.go")
    if ext == ".rs":
        return True  # Rust keeps unit tests beside the code: every file may hold #[test]
    if ext in (".java", ".kt"):
        return stem.startswith("Test") or stem.endswith(("Test", "Tests", "IT"))
    if ext == ".rb":
        return stem.endswith(("_spec", "_test"))
    return False


def is_test_infrastructure(path: str) -> bool:
    return posixpath.basename(path) in INFRASTRUCTURE


# Directories that hold a test tree: the tests and what they read (data, helpers, fixtures,
# snapshots, __init__.py, conftest.py). Go keeps its test data in `testdata`.
TREE_DIRS = frozenset({"tests", "test", "__tests__", "spec", "specs", "testdata",
                       "__snapshots__", "__fixtures__"})


def test_tree(path: str) -> str | None:
    """The test tree `path` lies in: the path up to its first test directory
    (`pkg/tests/data/x.json` -> `pkg/tests`); None outside any."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part in TREE_DIRS:
            return "/".join(parts[:i + 1])
    return None


# Test trees that hold what the tests in their parent directory read.
BESIDE = ("__snapshots__", "__fixtures__", "testdata")


def beside(path: str) -> tuple[str, ...]:
    """The test trees that belong to a test file outside any: its snapshots, fixtures and
    Go's testdata, in its own directory."""
    directory = posixpath.dirname(path)
    return tuple(posixpath.join(directory, d) for d in BESIDE)
