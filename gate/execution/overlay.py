"""Files put over a checkout for a while, and put back as they were afterwards."""
from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator, Mapping


def _read(path: str) -> tuple[bytes, int] | None:
    """A file's content and mode bits; None when there is no file."""
    try:
        with open(path, "rb") as f:
            return f.read(), os.stat(f.fileno()).st_mode & 0o7777
    except (FileNotFoundError, IsADirectoryError):
        return None


def _write(path: str, content: bytes | None, mode: int | None = None) -> None:
    if content is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(content)
    if mode is not None:
        os.chmod(path, mode)


def _take_out_links(root: str, rel: str, links: dict[str, str]) -> None:
    """Take out (into `links`) every symlink on the way to `rel`, so that writing it never
    follows one out of `root`: the head may have made a test file a link to a file elsewhere."""
    parts = rel.split("/")
    for i in range(1, len(parts) + 1):
        sub = "/".join(parts[:i])
        full = os.path.join(root, sub)
        if os.path.islink(full):
            links[sub] = os.readlink(full)
            os.unlink(full)


def _put_back_link(root: str, sub: str, target: str) -> None:
    full = os.path.join(root, sub)
    if os.path.isdir(full) and not os.path.islink(full):
        shutil.rmtree(full)
    elif os.path.lexists(full):
        os.unlink(full)
    os.symlink(target, full)


@contextlib.contextmanager
def overlay(root: str, files: Mapping[str, bytes | None]) -> Iterator[None]:
    """Write `files` (relative path -> content, None removes it) under `root`; put every one
    back as it was (content and mode) on exit, also on Ctrl-C. Symlinks on the way are
    replaced for the while, never written through."""
    links: dict[str, str] = {}
    try:
        for rel in files:
            _take_out_links(root, rel, links)
        saved = {rel: _read(os.path.join(root, rel)) for rel in files}
        try:
            for rel, content in files.items():
                _write(os.path.join(root, rel), content)
            yield
        finally:
            for rel, was in saved.items():
                _write(os.path.join(root, rel), *(was or (None, None)))
    finally:
        for sub in sorted(links, key=len, reverse=True):
            _put_back_link(root, sub, links[sub])
