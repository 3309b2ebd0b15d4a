"""Whose fault a result is: the change's, or the machine's (`infrastructure`: the network, a
missing command, the gate could not judge). An agent is never told to change code for the
machine's fault. The causes are the core's (`gate.engine.judgeable`), said alike by every
front door."""
from __future__ import annotations

from typing import Literal

from gate.engine.judgeable import why_not
from gate.models import Report

__all__ = ["Fault", "infrastructure"]

Fault = Literal["change", "infrastructure"]


def infrastructure(report: Report) -> str | None:
    """Why the report says nothing about the change, or None when it does."""
    return why_not(report)
