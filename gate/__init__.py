"""gate: a test gate for agent-written code."""
from __future__ import annotations

__version__ = "0.1.0"
