"""`gate publish --report FILE`: put a JSON report where a reviewer looks.

Always: workflow commands for the findings (the most important first), the job summary and the
step's outputs. With a token that may write: a check run on the judged head SHA, the sticky
comment and the label, but only while that SHA is still the pull request's head. Without a
token, or when the token is refused (403), it says so once and keeps to the first three.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from gate.engine import judgeable
from gate.engine.verdict import EXIT_CANNOT_JUDGE, EXIT_CODES
from gate.github import approval, check_run, comment, freshness, labels, modes, required_checks
from gate.github.client import Api, ApiError, ApiFactory, Forbidden
from gate.github.settings import Settings
from gate.models import Report
from gate.report import github as commands
from gate.report import json_report, markdown, tests_table, words


def one_line(report: Report) -> str:
    """The `summary` output: the verdict and what did not pass, on one line; where the gate
    could not judge, that, in the words every front door uses."""
    why = judgeable.why_not(report)
    if why is not None:
        return judgeable.said(why).removeprefix("gate: ")
    n = sum(len(c.findings) for c in report.checks)
    bad = [f"{c.id} {words.outcome(c)}" for c in report.checks
           if c.status not in ("passed", "skipped")]
    return f"{report.verdict}: {n} finding{'s' if n != 1 else ''}" + (
        f" ({', '.join(bad)})" if bad else "")


def test_outputs(report: Report) -> dict[str, str]:
    """The `passed`, `failed` and `flaky` outputs: the suite's test counts, empty when the
    runner's counts were not read (or the suite did not run)."""
    tests = tests_table.counts(report)
    if tests is None:
        return {"passed": "", "failed": "", "flaky": ""}
    return {"passed": str(tests.passed), "failed": str(tests.failed), "flaky": str(tests.flaky)}


def exit_code(report: Report, fail_on: str, approved: bool = False) -> int:
    """The step's exit code: 2 where the gate could not judge, whatever `fail-on` says (it
    is no verdict); 0 for a needs-review a person approved; else the verdict's, where
    `fail-on` fails it."""
    if judgeable.why_not(report) is not None:
        return EXIT_CANNOT_JUDGE
    if approved and report.verdict == "needs-review":
        return 0
    return EXIT_CODES[report.verdict] if report.verdict in check_run.FAILING[fail_on] else 0


def _append(path: str | None, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)


def _outputs(settings: Settings, values: Mapping[str, str]) -> None:
    _append(settings.output, "".join(
        f"{key}<<GATE_EOF\n{value.replace(chr(10), ' ')}\nGATE_EOF\n"
        for key, value in values.items()))


def _post(api: Api, settings: Settings, report: Report, links: markdown.Links,
          notes: list[str], approvals: list[str]) -> str | None:
    """The check run, the comment and the label; a refused layer is noted, the rest go on.
    Returns who approved a needs-review head, if a person did."""
    pr = settings.pr_number
    fresh = freshness.check(api, pr, report.head) if pr is not None else None
    stale = fresh is not None and fresh.stale
    if fresh is not None and stale:
        notes.append(fresh.note())
    refused: list[str] = []
    approver = (_approver(api, settings, report, approvals) if pr is not None and not stale
                else None)
    result = check_run.conclusion(report.verdict, settings.fail_on, stale=stale,
                                  approved=approver is not None)
    summary = markdown.body(report, links=links, notes=[*notes, *approvals],
                            logs_url=settings.logs_url)
    steps: list[tuple[str, Callable[[], object]]] = [
        ("check run", lambda: check_run.complete(api, settings.check_name, report, summary,
                                                 result, stale, approver))]
    if pr is not None and not stale:
        if settings.comment_mode != "off":
            steps.append(("comment", lambda: _comment(api, pr, settings, report, links)))
        steps.append(("label", lambda: labels.sync(api, pr, settings.label, report.verdict)))
    for name, step in steps:
        try:
            step()
        except Forbidden:
            refused.append(name)
        except ApiError as e:
            notes.append(f"The {name} was not posted: {e}.")
    if refused:
        notes.append(f"The token was refused (403) for the {', '.join(refused)}: the results "
                     "are in the workflow annotations and this job summary only. A fork's pull "
                     "request gets a read-only token: see the two-workflow pattern in "
                     "docs/action.md.")
    return approver


def _approver(api: Api, settings: Settings, report: Report, notes: list[str]) -> str | None:
    """Who approved this needs-review head, as the gate checks it (gate.github.approval); the
    approvals it refused, and how to approve, go to the notes."""
    if report.verdict != "needs-review" or settings.pr_number is None:
        return None
    try:
        found = approval.find(api, settings.pr_number, report.head, settings.agent_accounts)
    except ApiError as e:
        notes.append(f"The approvals could not be read: {e}.")
        return None
    notes.extend(f"An approval that does not count: {why}." for why in found.refused)
    if found.approver is not None:
        notes.append(f"Approved by @{found.approver} for head {report.head[:12]}: the check "
                     "run concludes success.")
    else:
        notes.append(APPROVE)
    return found.approver


APPROVE = ("A person must approve this head: an approving review of the pull request by someone "
           "with write access who is not its author nor an agent's account turns this check "
           "green; a new push needs a new approval.")


def _comment(api: Api, pr: int, settings: Settings, report: Report,
             links: markdown.Links) -> str:
    mark = comment.marker(settings.check_name)
    existing = comment.find(api, pr, mark)
    previous = comment.previous_state(existing[1]) if existing else None
    skip = comment.reason_to_skip(settings.comment_mode, previous, existing is not None, report)
    if skip is not None:
        return f"no comment: {skip}"
    body = markdown.truncate(markdown.body(
        report, links=links, changes=comment.changes(previous, report),
        logs_url=settings.logs_url), 60000)
    return comment.post(api, pr, mark, report, body, existing)


def publish(report: Report, settings: Settings, report_path: str, *,
            api_factory: ApiFactory | None = None, out: TextIO | None = None,
            waiting: required_checks.Waiting | None = None) -> int:
    out = out or sys.stdout
    if settings.mode == "checks":
        report = modes.with_required_checks(report, settings, api_factory or Api, waiting)
        with open(report_path, "w", encoding="utf-8") as f:
            f.write(json_report.render(report))
    for line in commands.groups(report):
        print(line, file=out)
    items = commands.ordered(report)
    for item in items:
        print(commands.to_command(item), file=out)
    notes: list[str] = []  # each also a warning on the step
    approvals: list[str] = []  # who approved, or how to: the summaries only
    links = markdown.Links(settings.server_url, settings.repository or "", report.head,
                           report.base)
    approver: str | None = None
    if not settings.can_post:
        notes.append("No GitHub token: the results are in the workflow annotations and this "
                     "job summary only (no check run, comment or label).")
    else:
        try:
            approver = _post((api_factory or Api)(settings), settings, report, links, notes,
                             approvals)
        except ApiError as e:
            notes.append(f"Nothing was posted to the pull request: {e}. The results are in the "
                         "workflow annotations and this job summary only.")
    for note in notes:
        print(commands.command("warning", note.replace("`", "")), file=out)
    why = judgeable.why_not(report)
    if why is not None:  # an error annotation, and the job summary's first note
        print(commands.command("error", judgeable.said(why).replace("`", "")), file=out)
        notes.insert(0, judgeable.said(why).removeprefix("gate: ").capitalize())
    dropped = commands.hidden(items)
    if dropped:
        notes.append(f"{dropped} of {len(items)} annotations are not shown on this step: GitHub "
                     f"shows {commands.LIMIT_PER_LEVEL} of each level per step. All findings "
                     "are listed below.")
    _append(settings.step_summary, markdown.body(
        report, links=links if settings.repository else None, notes=[*notes, *approvals],
        logs_url=settings.logs_url))
    _outputs(settings, {"verdict": report.verdict, "report": report_path,
                        "summary": one_line(report), **test_outputs(report)})
    return exit_code(report, settings.fail_on, approver is not None)


def start(settings: Settings, *, api_factory: ApiFactory | None = None,
          out: TextIO | None = None) -> int:
    """The check run, `in_progress`, on the event's head SHA, before the gate runs."""
    if not settings.can_post or not settings.event_head_sha:
        return 0
    try:
        check_run.start((api_factory or Api)(settings), settings.check_name,
                        settings.event_head_sha, settings.run_url)
    except ApiError as e:
        print(f"gate: no check run was started: {e}", file=out or sys.stdout)
    return 0


def without_report(settings: Settings, reason: str, *, api_factory: ApiFactory | None = None,
                   out: TextIO | None = None) -> int:
    """The run step left no report (it crashed, was cancelled, or failed before the gate ran):
    the check run still concludes, as "could not judge" with the reason; exit 2."""
    out = out or sys.stdout
    said = f"the gate could not judge: {reason}"
    print(commands.command("error", said.replace("`", "")), file=out)
    if settings.can_post and settings.event_head_sha:
        try:
            check_run.could_not_judge((api_factory or Api)(settings), settings.check_name,
                                      settings.event_head_sha, reason, settings.run_url)
        except ApiError as e:
            print(commands.command("warning", f"The check run was not concluded: {e}"), file=out)
    _append(settings.step_summary, f"## gate: could not judge\n\n{reason}\n")
    _outputs(settings, {"verdict": "", "report": "", "summary": said})
    return EXIT_CANNOT_JUDGE
