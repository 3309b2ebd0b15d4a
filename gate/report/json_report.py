"""The JSON answer of DESIGN.md, for agents and for the other front doors."""
from __future__ import annotations

import json

from gate.models import Report


def render(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2) + "\n"
