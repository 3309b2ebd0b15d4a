"""Files the judged code may have written, as the gate reads them outside the boundary:
regular files only (a FIFO would block the open for ever, a device give an endless read),
opened without blocking, not through a link unless asked, and no more than a limit of each;
and the gate's own files in a directory the judged code can write (the scratch directory),
written by a rename into place, never through a link it left there."""
from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from typing import BinaryIO

LIMIT = 64 << 20  # bytes: larger than any plugin list, fingerprint or RECORD the gate reads


def open_regular(path: str, *, follow: bool = False) -> BinaryIO | None:
    """The regular file at `path`, open for reading; None when it is missing or something
    else (a FIFO, a device, a directory; a link, unless `follow`)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


def read(path: str, limit: int = LIMIT, *, follow: bool = False) -> bytes | None:
    """The content of the regular file at `path` (`open_regular`); None also when it is
    larger than `limit`."""
    f = open_regular(path, follow=follow)
    if f is None:
        return None
    with f:
        try:
            data = f.read(limit + 1)
        except OSError:
            return None
    return data if len(data) <= limit else None


def text(path: str) -> str | None:
    """The text of a regular file of the checkout (`read`, through a link: the project's own
    files may be links), undecodable bytes replaced; None where `read` gives none."""
    data = read(path, follow=True)
    return None if data is None else data.decode("utf-8", "replace")


def write(path: str, content: str | bytes) -> None:
    """`content` (text as UTF-8) at `path`, in a directory the judged code may write: written
    to a new file beside it and renamed over it, so that a link (or a FIFO) left at `path` is
    replaced, never written through (the gate writes as its user, outside the boundary)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, partial = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".gate-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(partial, path)
    except BaseException:
        os.unlink(partial)
        raise


def remove_special(root: str, paths: Iterable[str]) -> list[str]:
    """Remove each of `paths` (relative to `root`, a checkout of the gate's own) that is
    neither a regular file nor a directory, nor a link to one: a FIFO, a socket, a device,
    or a link to one (`/dev/zero`). Every later reader of the checkout (the gate's detection,
    scoping, sharding and locating) then finds files or nothing. The paths removed."""
    removed = []
    for rel in paths:
        full = os.path.join(root, rel)
        if os.path.lexists(full) and not (os.path.isfile(full) or os.path.isdir(full)):
            os.unlink(full)
            removed.append(rel)
    return removed
