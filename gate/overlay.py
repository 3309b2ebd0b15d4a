"""Files put over a checkout for a while, and put back as they were afterwards."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _write(path: str, content: bytes | None) -> None:
    if content is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(content)


@contextlib.contextmanager
def overlay(root: str, files: Mapping[str, bytes | None]) -> Iterator[None]:
    """Write `files` (relative path -> content, None removes it) under `root`; restore on exit."""
    saved = {rel: _read(os.path.join(root, rel)) for rel in files}
    try:
        for rel, content in files.items():
            _write(os.path.join(root, rel), content)
        yield
    finally:
        for rel, content in saved.items():
            _write(os.path.join(root, rel), content)
