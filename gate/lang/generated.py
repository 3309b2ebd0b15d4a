"""Generated and vendored files: not scanned for markers or escapes."""
from __future__ import annotations

import fnmatch

_VENDORED = ("vendor", "third_party", "node_modules")
_DIRS = ("__snapshots__", "generated", "dist", *_VENDORED)
_NAMES = ("*.min.js", "*.min.css", "*.map", "*.snap", "*.pb.go", "*_pb2.py", "*.generated.*")


def is_generated(path: str) -> bool:
    parts = path.split("/")
    if any(part in _DIRS for part in parts[:-1]):
        return True
    return any(fnmatch.fnmatch(parts[-1], pattern) for pattern in _NAMES)


def is_vendored(path: str) -> bool:
    """Under a directory of someone else's code."""
    return any(part in _VENDORED for part in path.split("/")[:-1])
