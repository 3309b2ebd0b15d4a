"""One comment per pull request, found again by a hidden marker and edited in place. It
carries the verdict it showed (hidden, as JSON) to say what changed since then, and to post
only when there is something to say (`comment-mode`):

- `always`: on every run;
- `changes` (the default): when the verdict, a check's status or the findings changed since
  the comment, and never a first comment for a pass;
- `failures`: when the verdict is not a pass, and to turn an earlier comment into the pass
  that followed it (a stale failure would mislead);
- `off`: never.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from gate.github.client import Api
from gate.models import Report

_STATE = re.compile(r"<!-- gate:state (\{.*?\}) -->")


def marker(check_name: str) -> str:
    return f"<!-- gate:comment {check_name.replace('--', '-')} -->"


def _digest(report: Report) -> str:
    """Which findings there are, whatever their lines (a finding moved by an edit above it is
    the same finding)."""
    keys = sorted(f"{c.id}\0{f.path}\0{f.rule}\0{f.message}"
                  for c in report.checks for f in c.findings)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]


def _data(report: Report) -> dict[str, Any]:
    return {"verdict": report.verdict, "head": report.head,
            "checks": {c.id: c.status for c in report.checks},
            "findings": sum(len(c.findings) for c in report.checks),
            "digest": _digest(report)}


def state(report: Report) -> str:
    return f"<!-- gate:state {json.dumps(_data(report), sort_keys=True)} -->"


def reason_to_skip(mode: str, previous: Mapping[str, Any] | None, has_comment: bool,
                   report: Report) -> str | None:
    """Why no comment is posted or edited this time (None: post it), by `comment-mode`."""
    if mode == "off":
        return "comment-mode is off"
    if mode == "always":
        return None
    if not has_comment and report.verdict == "pass":
        return "a pass, and no earlier comment to update"
    if mode == "failures":
        return None
    now = _data(report)
    if previous is not None and all(previous.get(k) == now[k]
                                    for k in ("verdict", "checks", "findings", "digest")):
        return f"nothing changed since the comment for `{str(previous.get('head'))[:12]}`"
    return None


def previous_state(body: str) -> dict[str, Any] | None:
    match = _STATE.search(body)
    if not match:
        return None
    try:
        data = json.loads(match.group(1))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def changes(previous: Mapping[str, Any] | None, report: Report) -> list[str]:
    """What changed since the verdict the comment showed before, one line each."""
    if previous is None:
        return []
    head = str(previous.get("head", ""))[:12]
    lines = []
    if previous.get("verdict") != report.verdict:
        lines.append(f"verdict: {previous.get('verdict')} → **{report.verdict}** "
                     f"(was for `{head}`)")
    before = previous.get("checks")
    before = before if isinstance(before, dict) else {}
    lines += [f"`{c.id}`: {before[c.id]} → {c.status}"
              for c in report.checks if c.id in before and before[c.id] != c.status]
    found = sum(len(c.findings) for c in report.checks)
    if previous.get("findings") != found:
        lines.append(f"findings: {previous.get('findings')} → {found}")
    return lines or [f"nothing changed since `{head}`"]


def find(api: Api, pr_number: int, mark: str) -> tuple[int, str] | None:
    """The gate's comment on the PR: the first with the marker."""
    return next(((i, body) for i, body in api.comments(pr_number) if mark in body), None)


def post(api: Api, pr_number: int, mark: str, report: Report, body: str,
         existing: tuple[int, str] | None) -> str:
    """Edit the gate's comment, or add it the first time. Returns what was done."""
    text = f"{mark}\n{state(report)}\n{body}"
    if existing is not None:
        api.edit_comment(pr_number, existing[0], text)
        return "comment edited"
    api.create_comment(pr_number, text)
    return "comment added"
