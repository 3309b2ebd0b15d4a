"""Which tool fills a fresh Python environment: uv where it is available, else pip.

uv creates a seeded environment and installs the same requirements about twenty times faster
than `python -m venv` and pip (bench/run, "environment_creation"); the environment is just
as fresh. `GATE_NO_UV=1` makes the gate use venv and pip even where uv is found.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Mapping

PIP_INSTALL = "python -m pip install --disable-pip-version-check"
# pip's settings that uv knows under another name: a user's index or mirror keeps working.
_PIP_TO_UV = {"PIP_INDEX_URL": "UV_INDEX_URL", "PIP_EXTRA_INDEX_URL": "UV_EXTRA_INDEX_URL",
              "PIP_FIND_LINKS": "UV_FIND_LINKS", "PIP_NO_INDEX": "UV_NO_INDEX"}


def find_uv() -> str | None:
    """uv on PATH or beside the interpreter running the gate; None if absent or turned off."""
    if os.environ.get("GATE_NO_UV"):
        return None
    beside = os.path.join(os.path.dirname(sys.executable), "uv")
    return shutil.which("uv") or (beside if os.access(beside, os.X_OK) else None)


def pip_install() -> str:
    """The command prefix that installs packages into the active environment."""
    uv = find_uv()
    return f"{shlex.quote(uv)} pip install" if uv else PIP_INSTALL


def uv_settings(env: Mapping[str, str]) -> dict[str, str]:
    """`env` with pip's index settings also given under uv's names (uv's own win)."""
    out = dict(env)
    for pip_name, uv_name in _PIP_TO_UV.items():
        if pip_name in env and uv_name not in env:
            out[uv_name] = "true" if uv_name == "UV_NO_INDEX" else env[pip_name]
    return out
