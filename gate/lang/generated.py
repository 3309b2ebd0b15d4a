"""Generated and vendored files: not scanned for markers or escapes."""
from __future__ import annotations

import fnmatch
import itertools

_VENDORED = ("vendor", "third_party", "node_modules")
_DIRS = ("__snapshots__", "generated", "dist", *_VENDORED)
_NAMES = ("*.min.js", "*.min.css", "*.map", "*.snap", "*.pb.go", "*_pb2.py", "*.generated.*")


def _build_copy(parts: list[str]) -> bool:
    """setuptools' copy of the sources: `build/lib/`, `build/lib.linux-x86_64-3.11/` (pytest
    does not look in `build` by default; diff-policy names the directory as build output)."""
    return any(a == "build" and (b == "lib" or b.startswith(("lib.", "bdist.")))
               for a, b in itertools.pairwise(parts[:-1]))


def is_generated(path: str) -> bool:
    parts = path.split("/")
    if any(part in _DIRS for part in parts[:-1]) or _build_copy(parts):
        return True
    return any(fnmatch.fnmatch(parts[-1], pattern) for pattern in _NAMES)


def is_built(path: str) -> bool:
    """Made by a tool (a snapshot, a build, compiled protobuf), by its path alone; whose code
    is vendored is the project's to say (`gate.lang.own_code`)."""
    parts = path.split("/")
    if any(part in _DIRS and part not in _VENDORED for part in parts[:-1]) or _build_copy(parts):
        return True
    return any(fnmatch.fnmatch(parts[-1], pattern) for pattern in _NAMES)


def is_vendored(path: str) -> bool:
    """Under a directory of someone else's code."""
    return any(part in _VENDORED for part in path.split("/")[:-1])
