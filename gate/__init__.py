"""gate: a test gate for agent-written code."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gate.api import run, scan

__version__ = "0.1.0"

__all__ = ["__version__", "run", "scan"]


def __getattr__(name: str) -> Any:
    """`gate.run` and `gate.scan`, imported on first use so that `import gate` stays cheap."""
    if name in ("run", "scan"):
        from gate import api

        return getattr(api, name)
    raise AttributeError(f"module 'gate' has no attribute {name!r}")
