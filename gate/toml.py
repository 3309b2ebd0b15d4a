"""TOML reading on every supported Python (tomllib from 3.11, tomli before)."""
from __future__ import annotations

import sys
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

TOMLDecodeError = tomllib.TOMLDecodeError


def loads(text: str) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(text)
    return data
