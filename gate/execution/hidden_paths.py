"""Why a command is not found inside the isolation boundary though the caller's shell finds
it: the boundary gives each judged command empty temporary directories of its own
(`bwrap.TMP_DIRS`), and shows of them only the paths the environment names (`isolation`:
PATH's directories, a wheelhouse). A tool unpacked under /tmp whose PATH entry is a link
into its package (pnpm's `bin/pnpm -> ../lib/node_modules/pnpm/bin/pnpm.cjs`), or whose
`#!` names an interpreter there, is on the caller's PATH and absent for the command. The
message names the hidden path and what to do; nothing where the caller cannot find the
command either, or where nothing of it is hidden."""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping

from gate.execution import bwrap

# `sh: 1: pnpm: not found` (dash), `bash: pnpm: command not found`, `env: 'pnpm': No such file`
_MISSING = re.compile(r"(?:^|: )'?([\w.+\-]+)'?: (?:command )?not found|"
                      r"env: '([\w.+\-]+)': No such file", re.M)


def missing_command(output: str) -> str | None:
    """The command a shell said it could not find, the last it named."""
    found = list(_MISSING.finditer(output))
    return next((g for g in found[-1].groups() if g), None) if found else None


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _interpreter(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except OSError:
        return None
    words = first[2:].decode("utf-8", "replace").split() if first.startswith(b"#!") else []
    return words[0] if words and words[0].startswith("/") else None


def _hidden(where: str, shown: list[str]) -> str | None:
    """The first path the command needs that lies under a temporary directory of the host
    and under no directory the boundary shows: the file its PATH entry links to, or its
    `#!` interpreter."""
    real = os.path.realpath(where)
    needed = [real, *(p for p in [_interpreter(real)] if p)]
    for path in (os.path.realpath(p) for p in needed):
        if any(_under(path, d) for d in bwrap.TMP_DIRS) and not any(
                _under(path, s) for s in shown):
            return path
    return None


def note(output: str, environ: Mapping[str, str] | None = None) -> str:
    """`: <why and what to do>` where the command the output says is missing is on the
    caller's PATH under a directory the boundary hides; "" otherwise."""
    name = missing_command(output)
    if name is None:
        return ""
    path = (environ if environ is not None else os.environ).get("PATH", os.defpath)
    where = shutil.which(name, path=path)
    shown = [os.path.realpath(d) for d in path.split(os.pathsep) if d.startswith("/")]
    hidden = _hidden(where, shown) if where else None
    if where is None or hidden is None:
        return ""
    return (f": `{name}` is at {where} on your PATH, but it needs {hidden}, which the "
            f"isolation boundary does not show (each judged command gets empty "
            f"{', '.join(bwrap.TMP_DIRS)} of its own, with only the directories the "
            "environment names): install it outside them (~/.local/bin, corepack, npm -g or "
            "the system's package manager), or run with `--isolation off` where the code is "
            "trusted")
