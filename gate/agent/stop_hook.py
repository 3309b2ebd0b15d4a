"""`gate hook agent-stop`: a Claude Code `Stop` hook. When the agent stops, the diff checks
run on its work (the working tree, uncommitted files included, as a commit no ref points to);
findings block the stop (exit 2) and go back to the model on stderr.

Claude Code gives the hook JSON on stdin (`cwd`, `stop_hook_active`, ...). Exit 2 blocks the
stop and feeds stderr to the model; exit 0 lets it stop; any other code is an error shown to
the person, never a block. So that the agent cannot loop for ever, the same findings block once:
when the hook already blocked (`stop_hook_active`) and nothing changed, the stop goes through.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Any, TextIO

from gate.agent import attempts, feedback, snapshot
from gate.engine import runner
from gate.errors import GateError
from gate.execution import workspace
from gate.models import Report

BLOCK = 2
ERROR = 1  # shown to the person; never blocks the agent


def _event(stdin: TextIO) -> dict[str, Any]:
    try:
        data = json.loads(stdin.read() or "{}")
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def _fingerprint(report: Report) -> str:
    found = sorted(f"{c.id} {f.path}:{f.line} {f.rule}" for c in report.checks
                   for f in c.findings)
    return hashlib.sha256("\n".join(found).encode()).hexdigest()


def _seen(root: str, fingerprint: str) -> bool:
    """Whether the last block was for these same findings; remembers these."""
    path = os.path.join(attempts.directory(root), "agent-stop")
    try:
        with open(path, encoding="utf-8") as f:
            last = f.read().strip()
    except FileNotFoundError:
        last = ""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(fingerprint + "\n")
    return last == fingerprint


def judge(cwd: str, base: str | None) -> Report | None:
    """The diff checks on the working tree against `base` (default HEAD); None before the
    first commit (nothing to compare with)."""
    root = workspace.resolve_repo(cwd)
    if not snapshot.has_head(root):
        return None
    return runner.scan(runner.Options(base=base or "HEAD", head=snapshot.working_tree(root),
                                      repo=root))


def main(stdin: TextIO, err: TextIO, base: str | None = None) -> int:
    event = _event(stdin)
    cwd = str(event.get("cwd") or os.getcwd())
    try:
        report = judge(cwd, base)
    except GateError as e:
        print(f"gate: the agent-stop hook could not scan: {e}", file=err)
        return ERROR
    if report is None or report.verdict == "pass":
        return 0
    root = workspace.resolve_repo(cwd)
    if _seen(root, _fingerprint(report)) and event.get("stop_hook_active"):
        print("gate: the same findings remain after they were handed back once; the stop goes "
              "through and a person must look", file=err)
        return 0
    header = (f"gate: {report.verdict}: the diff checks found this in your change against "
              f"{base or 'HEAD'} (uncommitted work included). Resolve it before you stop.")
    print(feedback.for_report(report, header), file=err)
    return BLOCK
