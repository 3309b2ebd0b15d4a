"""A trial's own files as a layer: in the sealed boundary with overlays, the files a trial puts
over its checkout (a mutant, the base's code) are written into a directory of the trial's own,
which each of its commands sees above the install's checkout in its overlay. Two trials never
see each other's files, and the shared checkout is never written.

    if layer.usable(ws):
        with layer.over(ws, root, files) as mine:   # mine.layers: (the layer,)
            ...run in mine...

A file to remove (None) is a whiteout in the layer (a character device 0/0, which overlayfs
reads as "not here" and an unprivileged user may make since Linux 5.8)."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import stat
from collections.abc import Iterator, Mapping

from gate.execution.run_workspace import Workspace


def usable(ws: Workspace) -> bool:
    """Whether `ws`'s commands see its checkout through an overlay of their own (the sealed
    boundary), above which a layer can go."""
    return ws.sealed and ws.boundary.overlays and ws.boundary.bwrap is not None


def _whiteout(path: str) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(0, 0))


def write(where: str, files: Mapping[str, bytes | None]) -> None:
    """`files` (relative path -> content, None: removed) as a layer in the new `where`."""
    os.makedirs(where)
    for rel, content in files.items():
        path = os.path.join(where, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if content is None:
            _whiteout(path)
        else:
            with open(path, "wb") as f:
                f.write(content)


@contextlib.contextmanager
def over(ws: Workspace, where: str, files: Mapping[str, bytes | None]) -> Iterator[Workspace]:
    """`ws` with `files` in a layer at `where` above its checkout; the layer goes on exit.
    Where each command sees the run's root through its overlay (`Workspace.seen_whole`), the
    layer goes above the root, the files under the checkout's place in it."""
    into = os.path.join(where, os.path.relpath(ws.checkout, ws.root())) if ws.seen_whole() \
        else where
    try:
        write(into, files)
        yield dataclasses.replace(ws, layers=(*ws.layers, where))
    finally:
        shutil.rmtree(where, ignore_errors=True)
