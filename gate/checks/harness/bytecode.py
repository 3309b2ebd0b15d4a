"""Binary Python in the change: a `.pyc` (or `.pyo`) whose source is not beside it, or was
not what it was compiled from, and a compiled extension (`.so`, `.pyd`), which Python imports
before a `.py` of the same name. What runs is then not what the diff shows."""
from __future__ import annotations

import importlib.util
import posixpath
import re
import struct
from collections.abc import Mapping

BYTECODE = (".pyc", ".pyo")
EXTENSIONS = (".so", ".pyd")
_TAG = re.compile(r"\.[\w-]+$")  # mod.cpython-311.pyc, mod.cpython-311-x86_64-linux-gnu.so
HEADER = 16  # magic, flags, then mtime and size or the source's hash


def is_binary_python(path: str) -> bool:
    return path.endswith(BYTECODE + EXTENSIONS)


def source_of(path: str) -> str:
    """The `.py` a compiled file stands for: `pkg/__pycache__/m.cpython-311.pyc` and
    `pkg/m.pyc` are `pkg/m.py`; `pkg/m.cpython-311-x86_64-linux-gnu.so` is `pkg/m.py`."""
    folder, name = posixpath.split(path)
    stem = name.rsplit(".", 1)[0]
    if posixpath.basename(folder) == "__pycache__":
        folder = posixpath.dirname(folder)
    stem = _TAG.sub("", stem) if "." in stem else stem
    return posixpath.join(folder, stem + ".py")


def compiled_from(pyc: bytes, source: bytes) -> bool | None:
    """Whether the bytecode's header matches the source (its hash, or its size); None when
    the header does not read."""
    if len(pyc) < HEADER:
        return None
    flags = struct.unpack("<I", pyc[4:8])[0]
    if flags & 1:  # hash-based: the source's SipHash
        return pyc[8:16] == importlib.util.source_hash(source)
    size: int = struct.unpack("<I", pyc[12:16])[0]
    return size == len(source) & 0xFFFFFFFF


def problem(path: str, blob: bytes | None, sources: Mapping[str, bytes | None]) -> str | None:
    """What is wrong with the compiled file at `path`, given the head's `sources`."""
    source_path = source_of(path)
    source = sources.get(source_path)
    if path.endswith(EXTENSIONS):
        shadow = f", and Python imports it in place of {source_path}" if source else ""
        return (f"a compiled extension in the change: its code is not in the diff{shadow}; "
                "commit the source it is built from and build it in the install")
    if source is None:
        return ("Python bytecode without its source: the code that runs is not in the diff; "
                "commit the source instead")
    if blob is not None and compiled_from(blob, source) is False:
        return (f"Python bytecode that was not compiled from {source_path} as committed: the "
                "code that runs is not the code in the diff; remove the .pyc")
    return None
