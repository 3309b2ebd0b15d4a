"""The label (default `gate: needs-review`): on the PR while its head needs review or fails."""
from __future__ import annotations

from gate.github.client import Api


def sync(api: Api, pr_number: int, label: str, verdict: str) -> str:
    """Add `label` on needs-review or fail, remove it on pass. Returns what was done."""
    if not label:
        return "no label configured"
    if verdict == "pass":
        api.remove_label(pr_number, label)
        return f"label {label!r} removed"
    api.add_label(pr_number, label)
    return f"label {label!r} added"
