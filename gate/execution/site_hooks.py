"""The files of a fresh environment that the interpreter runs at every start: `.pth` files
with `import` lines, `sitecustomize` and `usercustomize` modules; and which of them an
installed distribution's RECORD lists (installed as files, not written by code).

The judged code writes the environment, and the gate reads these files outside the
boundary: regular files only, as the interpreter would find them (through a link), never a
FIFO or a device (`judged_files`)."""
from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping

from gate.execution import judged_files

PATTERNS = ("*.pth", "sitecustomize.py", "usercustomize.py")
_EDITABLE = re.compile(r"^__editable__\.(.+?)-\d[^/]*\.pth$")


def _text(path: str) -> str:
    """A regular file's text (through a link too); "" for anything else."""
    data = judged_files.read(path, follow=True)
    return "" if data is None else data.decode("utf-8", "replace")


def site_packages(env: Mapping[str, str]) -> list[str]:
    venv = env.get("VIRTUAL_ENV")
    if not venv:
        return []
    return sorted(glob.glob(os.path.join(venv, "lib", "python*", "site-packages"))
                  + glob.glob(os.path.join(venv, "Lib", "site-packages")))


def present(env: Mapping[str, str]) -> set[str]:
    """The .pth, sitecustomize and usercustomize files of the environment, now."""
    return {path for site in site_packages(env) for pattern in PATTERNS
            for path in glob.glob(os.path.join(site, pattern)) if os.path.isfile(path)}


def recorded(env: Mapping[str, str]) -> set[str]:
    """Every file an installed distribution's RECORD lists, as a normalised path."""
    out: set[str] = set()
    for site in site_packages(env):
        for record in glob.glob(os.path.join(site, "*.dist-info", "RECORD")):
            out.update(os.path.normpath(os.path.join(site, line.split(",")[0]))
                       for line in _text(record).splitlines() if line.strip())
    return out


def runs_code(path: str) -> bool:
    """A .pth file runs its lines that start with `import`; a customize module always runs."""
    if not path.endswith(".pth"):
        return True
    return any(line.startswith(("import ", "import\t")) for line in _text(path).splitlines())


def name(path: str) -> str:
    """The hook's name, the same at base and head: the project's own editable install's .pth
    (`__editable__.calc-0.1.0.pth`) without its version, which a change may bump."""
    base = os.path.basename(path)
    editable = _EDITABLE.match(base)
    return f"__editable__.{editable.group(1)}" if editable else base


def running(env: Mapping[str, str]) -> tuple[str, ...]:
    """The names of the hooks that run code, now: what a base's install is remembered by."""
    return tuple(sorted({name(p) for p in present(env) if runs_code(p)}))
