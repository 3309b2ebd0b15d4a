"""The check run on the head SHA: created `in_progress` when the gate starts, completed with
every finding as an annotation, 50 per request (the API's limit), the summary within 65,535
characters."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gate.github.client import Api
from gate.models import Report
from gate.report import github as commands
from gate.report.markdown import truncate

BATCH = 50
_LEVELS = {"error": "failure", "warning": "warning", "notice": "notice"}
FAILING: dict[str, tuple[str, ...]] = {
    "fail": ("fail",), "needs-review": ("fail", "needs-review"), "never": ()}


def conclusion(verdict: str, fail_on: str, *, stale: bool = False,
               approved: bool = False) -> str:
    """success / action_required / failure / neutral. needs-review is `action_required`, which
    branch protection does not count as passing (success, neutral and skipped pass), until a
    person approves that head (`approved`: gate.github.approval); a stale result never
    concludes as a success or neutral."""
    if stale:
        return "failure" if verdict in FAILING[fail_on] else "cancelled"
    if verdict == "needs-review" and approved:
        return "success"
    if verdict in FAILING[fail_on]:
        return "failure"
    if verdict == "needs-review":
        return "action_required"
    return "success" if verdict == "pass" else "neutral"


def annotation(item: commands.Annotation) -> dict[str, Any]:
    start = max(item.line or 1, 1)
    return {
        "path": item.path or "",
        "start_line": start,
        "end_line": max(item.end_line or start, start),
        "annotation_level": _LEVELS[item.level],
        "title": item.title[:255],
        "message": item.message[:64000],
    }


def batches(report: Report) -> list[list[dict[str, Any]]]:
    """The findings with a file, as check run annotations, in requests of at most 50."""
    items = [annotation(a) for a in commands.ordered(report) if a.path]
    return [items[i:i + BATCH] for i in range(0, len(items), BATCH)]


def title(report: Report, stale_for: str | None = None, approver: str | None = None) -> str:
    n = sum(len(c.findings) for c in report.checks)
    if stale_for:
        return f"result discarded: the branch moved on from {report.head[:12]}"
    said = f"{report.verdict}: {n} finding{'s' if n != 1 else ''}"
    return f"approved by @{approver}: {said}" if approver else said


def start(api: Api, name: str, sha: str, details_url: str | None = None) -> int:
    fields: dict[str, Any] = {"status": "in_progress", "output": {
        "title": "running", "summary": "The gate is judging this commit."}}
    if details_url:
        fields["details_url"] = details_url
    return api.create_check_run(name, sha, **fields)


def complete(api: Api, name: str, report: Report, summary: str, result: str,
             stale: bool = False, approver: str | None = None) -> int:
    """Post every annotation on the run called `name` on the report's head (made if missing),
    then complete it with `result`. Returns the run's id."""
    head = title(report, report.head if stale else None, approver)
    output_base = {"title": head, "summary": truncate(summary)}
    chunks: Sequence[list[dict[str, Any]]] = batches(report) or [[]]
    run_id = api.find_check_run(name, report.head)
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        fields: dict[str, Any] = {"output": {**output_base, "annotations": chunk}}
        fields.update({"status": "completed", "conclusion": result} if last
                      else {"status": "in_progress"})
        if run_id is None:
            run_id = api.create_check_run(name, report.head, **fields)
        else:
            api.update_check_run(run_id, **fields)
    assert run_id is not None
    return run_id


def could_not_judge(api: Api, name: str, sha: str, reason: str, details_url: str | None) -> int:
    """Conclude the run called `name` on `sha` (made if missing) as "could not judge": never
    left `in_progress`, never a conclusion branch protection counts as passing."""
    fields: dict[str, Any] = {"status": "completed", "conclusion": "failure", "output": {
        "title": "could not judge", "summary": truncate(f"The gate could not judge: {reason}")}}
    if details_url:
        fields["details_url"] = details_url
    run_id = api.find_check_run(name, sha)
    if run_id is None:
        return api.create_check_run(name, sha, **fields)
    api.update_check_run(run_id, **fields)
    return run_id
