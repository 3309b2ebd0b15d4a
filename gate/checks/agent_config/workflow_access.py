"""What a GitHub workflow may do, compared between the base and the head: its `permissions`
(top level and per job), its triggers that run with the repository's secrets and a write token
on code from a pull request (`pull_request_target`, `workflow_run`), and the secrets a job
that runs the pull request's code can reach (`secrets: inherit`, a newly named secret).

How workflow *steps* and jobs are paired and compared is check-config's
(gate/checks/check_config/workflow_diff.py); this module only reads the workflow's data
through its `load` and `Lines`."""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

from gate.checks.check_config import workflow_diff
from gate.checks.check_config.workflow_diff import Key, Lines
from gate.models import Finding

Data = dict[str, object]
LEVELS = {"none": 0, "read": 1, "write": 2}
RISKY_TRIGGERS = ("pull_request_target", "workflow_run")
PR_TRIGGERS = ("pull_request", "pull_request_target", "workflow_run")
_SECRET = re.compile(r"secrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")
# Scope -> level; "*" is the level of every scope not named (read-all, write-all, {}).
Access = dict[str, int]
DEFAULT = "default"  # no `permissions`: the repository's default token, unknown here


def _dict(value: object) -> Data:
    return value if isinstance(value, dict) else {}


def access(value: object) -> Access | None:
    """A `permissions` value as levels per scope; None when absent (the default applies)."""
    if value is None:
        return None
    if value in ("read-all", "write-all"):
        return {"*": LEVELS["read" if value == "read-all" else "write"]}
    if isinstance(value, dict):
        levels = {str(k): LEVELS.get(str(v), 0) for k, v in value.items()}
        return {"*": 0, **levels}
    return {"*": 0}


def _level(access_: Access, scope: str) -> int:
    return access_.get(scope, access_.get("*", 0))


def _name(level: int) -> str:
    return {v: k for k, v in LEVELS.items()}[level]


def widened(old: Access | None, new: Access | None) -> list[str]:
    """Each scope whose level rose, as `scope: old -> new`; `(all scopes)` for the rest."""
    if new is None:
        return [] if old is None else ["permissions removed: the repository's default token "
                                       "applies again (it may be write)"]
    if new == {"*": 2}:
        return [] if old == new else ["write-all"]
    if old is None:
        return []
    out = []
    for scope in sorted(set(old) | set(new)):
        a, b = _level(old, scope), _level(new, scope)
        if b > a:
            label = "(every other scope)" if scope == "*" else scope
            out.append(f"{label}: {_name(a)} -> {_name(b)}")
    return out


def events(on: object) -> set[str]:
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(e) for e in on}
    return {str(k) for k in _dict(on)}


def _on(data: Data) -> object:
    return data.get("on")


def secrets(node: object) -> set[str]:
    """The secrets a job names anywhere (env, with, run, if), GITHUB_TOKEN aside."""
    text = json.dumps(node, default=str)
    found = {m.group(1) or m.group(2) for m in _SECRET.finditer(text)}
    return {s for s in found if s.upper() != "GITHUB_TOKEN"}


def runs_change(job: Data) -> bool:
    """Whether a job runs the pull request's code: it checks the repository out and then runs
    a command or a local action, or it calls a reusable workflow. A job of `run:` steps alone
    (a label, a comment through the API) has no code of the change to run."""
    listed = job.get("steps")
    steps = [_dict(step) for step in listed] if isinstance(listed, list) else []
    checkout = next((i for i, step in enumerate(steps)
                     if str(step.get("uses", "")).startswith("actions/checkout")), None)
    return "uses" in job or (checkout is not None and any(
        "run" in step or str(step.get("uses", "")).startswith("./") for step in steps[checkout:]))


def writes(access_: Access | None) -> list[str]:
    """The scopes a `permissions` value lets write (`(every other scope)` for the rest)."""
    if access_ is None:
        return []
    return [("(every scope)" if len(access_) == 1 else "(every other scope)")
            if scope == "*" else scope for scope, level in sorted(access_.items())
            if level == LEVELS["write"]]


def _finding(path: str, lines: Lines, at: Sequence[Key], rule: str, message: str) -> Finding:
    return Finding(path=path, line=lines(at), rule=rule, severity="warning", message=message)


def compare(path: str, old: Data, new: Data, head_text: str) -> list[Finding]:
    lines, found = Lines(head_text), list[Finding]()
    top_old, top_new = access(old.get("permissions")), access(new.get("permissions"))
    for what in widened(top_old, top_new):
        found.append(_finding(path, lines, ["permissions"], "workflow-permissions",
                              f"workflow permissions widened: {what}"))
    if not old and top_new != {"*": 2} and writes(top_new):
        found.append(_finding(path, lines, ["permissions"], "workflow-permissions",
                              "new workflow with write access: " + ", ".join(writes(top_new))))
    added = sorted(events(_on(new)) - events(_on(old)))
    for event in (e for e in added if e in RISKY_TRIGGERS):
        found.append(_finding(path, lines, ["on", event], "workflow-trigger",
                              f"new trigger {event}: its jobs run with the repository's "
                              "secrets and a token that can write, on behalf of a pull request"))
    from_pr = any(e in PR_TRIGGERS for e in events(_on(new)))
    jobs_old, jobs_new = _dict(old.get("jobs")), _dict(new.get("jobs"))
    base_secrets = secrets({k: v for k, v in old.items() if k != "jobs"})
    head_secrets = secrets({k: v for k, v in new.items() if k != "jobs"})
    was_named = {new: old for old, new in workflow_diff.renamed_jobs(jobs_old, jobs_new).items()}
    for job_id, value in jobs_new.items():
        job, before = _dict(value), _dict(jobs_old.get(was_named.get(job_id, job_id)))
        here = ["jobs", job_id]
        if "permissions" in job:
            was = access(before["permissions"]) if "permissions" in before else top_old
            now = access(job["permissions"])
            said = widened(was, now)
            if was is None and not before and now != {"*": 2} and writes(now):
                said = ["new job with write access: " + ", ".join(writes(now))]
            for what in said:
                found.append(_finding(path, lines, [*here, "permissions"],
                                      "workflow-permissions",
                                      f"job {job_id}: permissions widened: {what}"
                                      if not what.startswith("new job") else
                                      f"job {job_id}: {what}"))
        if job.get("secrets") == "inherit" and before.get("secrets") != "inherit":
            found.append(_finding(path, lines, [*here, "secrets"], "workflow-secrets",
                                  f"job {job_id}: `secrets: inherit` passes every secret "
                                  "to the workflow it calls"))
        new_names = (secrets(job) | head_secrets) - (secrets(before) | base_secrets)
        if from_pr and runs_change(job) and new_names:
            found.append(_finding(path, lines, here, "workflow-secrets",
                                  f"job {job_id} runs the pull request's code and now "
                                  "reaches " + ", ".join(f"secrets.{s}"
                                                         for s in sorted(new_names))))
    return found
