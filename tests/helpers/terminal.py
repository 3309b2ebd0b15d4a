"""A command run on a pseudo-terminal, as a person at a terminal would see it."""
from __future__ import annotations

import os
import pty
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


def on_a_terminal(argv: Sequence[str], cwd: Path, environ: Mapping[str, str]) -> tuple[int, str]:
    """Run with stdout and stderr on one pseudo-terminal; the exit code, and what it showed."""
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(list(argv), cwd=cwd, env=dict(environ), stdin=subprocess.DEVNULL,
                            stdout=secondary, stderr=secondary)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    return proc.wait(), b"".join(chunks).decode().replace("\r\n", "\n")
