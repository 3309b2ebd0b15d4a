"""The baseline, paid for only when needed: when a required check fails on the head, it runs
again on the base (a fresh checkout, a fresh install), and each failure is classified as a
regression (passes at base, fails at head) or pre-existing (fails at base too).

A pre-existing failure still blocks a required check; the message tells the reviewer that it
is not this change's doing.
"""
from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Sequence

from gate.engine.config import UserCheck
from gate.execution import process, workspace
from gate.execution.run_workspace import Workspace
from gate.models import CheckResult, Finding
from gate.outcomes.record import Counts
from gate.outcomes.testrun import run_tests

REGRESSION = "regression"
PRE_EXISTING = "pre-existing"
FLAKY = "flaky"  # failed in some head runs only: not a regression against one base run
ORDER = "order-dependent"  # failed at head in another order than the only one the base ran
CONDITIONS = "other conditions"  # failed at head only in the run under other conditions
# How the suite's finding of a flaky, an order-dependent or a condition-dependent test
# starts (checks/suite.py).
FLAKY_SAID, ORDER_SAID, CONDITIONS_SAID = f"{FLAKY}:", f"{ORDER}:", f"{CONDITIONS}:"
# What a run prints where the environment lacks a module, or a command.
NO_MODULE = re.compile(r"No module named '?([\w.\-]+)'?")
_LACKS = re.compile(NO_MODULE.pattern + r"|(?:^|[\s:])([\w.\-]+): (?:command )?not found",
                    re.M)
# (temporary root, checkout) -> the fresh environment to run in
MakeWorkspace = Callable[[str, str], Workspace]


def needed(result: CheckResult) -> bool:
    """A required check that failed, or whose command was not found (the base says whether
    the install ever brought it: the suite's "(run 1: command not found)" too)."""
    return result.required and (result.status == "failed" or (
        result.status == "error" and (result.summary.endswith(": command not found")
                                      or "run 1: command not found" in result.summary)))


def lacks(text: str) -> str | None:
    """The module or command a failure's text says the environment lacks."""
    found = _LACKS.search(text)
    return None if found is None else (found.group(1) or found.group(2))


def install_hint(head: str, base: str) -> str:
    """Where the head and the base fail alike for want of the same module or command: the
    install is the cause, and the config that sets it is the base's."""
    missing = lacks(head)
    if missing is None or lacks(base) != missing:
        return ""
    return f": the install lacks {missing}: set `install` in [tool.gate] on the base branch"


def _label(test_name: str, counts: Counts | None, base_passed: bool, message: str = "",
           ) -> str:
    outcomes = {c.name: c.outcome for c in counts.cases} if counts else {}
    if counts is not None and counts.complete:
        if outcomes.get(test_name) == "failed":
            at_base = next(c.message for c in counts.cases if c.name == test_name)
            return f"{PRE_EXISTING}: fails at base too" + install_hint(message, at_base)
        if test_name not in outcomes:
            return f"{REGRESSION}: new at head"
        return f"{REGRESSION}: passed at base"
    if test_name in outcomes:  # a runner that names only its failures
        return f"{PRE_EXISTING}: fails at base too"
    if counts is not None:
        return f"{REGRESSION}: not among the base's failures"
    return (f"{PRE_EXISTING}: the suite fails at base too" if not base_passed
            else f"{REGRESSION}: the suite passes at base")


def failed_test(message: str) -> tuple[str, str]:
    """How the suite's finding of a failed test said it (FLAKY_SAID, ORDER_SAID or ""), and
    the test's name."""
    for said, until in ((FLAKY_SAID, " failed in "), (ORDER_SAID, " fails in "),
                        (CONDITIONS_SAID, " fails with ")):
        if message.startswith(said + " "):
            return said, message[len(said) + 1:].split(until, 1)[0]
    return "", message.split(" failed in ", 1)[0]


def classify_suite(result: CheckResult, counts: Counts | None, base_passed: bool,
                   ) -> CheckResult:
    """The suite's failures, each labelled by the base's outcome of the same test."""
    findings: list[Finding] = []
    labels: list[str] = []
    for f in result.findings:
        if f.rule != "test-failed":
            findings.append(f)
            continue
        said, name = failed_test(f.message)
        label = _label(name, counts, base_passed, f.message)
        if said == FLAKY_SAID and label.startswith(REGRESSION):
            # passed in some head runs: one passing base run does not make it the change's
            label = f"{FLAKY}: passed " + (
                "at base and " if label.endswith("passed at base") else "") + "in some runs at head"
        elif said == CONDITIONS_SAID and label.endswith("passed at base"):
            # the base ran under the usual conditions only
            label = f"{REGRESSION}: passed at base, under the usual conditions, the only ones " \
                "run there"
        elif said == ORDER_SAID and label.endswith("passed at base"):
            # the base ran in the project's order only: the other order was never tried there
            label = f"{ORDER}: passed at base, in the project's order, the only one run there"
        labels.append(label.split(":", 1)[0])
        findings.append(dataclasses.replace(f, message=f"{f.message} [{label}]"))
    if not labels:  # no test named: the run as a whole
        return _classify_whole(result, base_passed)
    return dataclasses.replace(result, summary=result.summary + _tally(labels),
                               findings=tuple(findings))


def _tally(labels: Sequence[str]) -> str:
    regressions = labels.count(REGRESSION)
    pre = labels.count(PRE_EXISTING)
    flaky = labels.count(FLAKY)
    order = labels.count(ORDER)
    parts = []
    if regressions:
        parts.append(f"{regressions} regression(s)")
    if flaky:
        parts.append(f"{flaky} flaky, passing in some runs")
    if order:
        parts.append(f"{order} order-dependent, passing at base in the project's order")
    if pre:
        parts.append(f"{pre} pre-existing, failing at base too: not this change's doing")
    return "; baseline: " + ", ".join(parts)


def not_installed(result: CheckResult, command: str) -> CheckResult:
    return dataclasses.replace(
        result, summary=result.summary + f"; baseline: the base does not install either "
                                          f"(`{command}`)")


def _classify_whole(result: CheckResult, base_ok: bool, base_output: str = "") -> CheckResult:
    label = (f"; baseline: {REGRESSION}, passes at base" if base_ok else
             f"; baseline: {PRE_EXISTING}, fails at base too: not this change's doing"
             + install_hint(result.detail, base_output))
    return dataclasses.replace(result, summary=result.summary + label)


def run(
    repo: str,
    base_sha: str,
    failing: dict[str, CheckResult],
    install_command: Callable[[str], str | None],
    test_command: str | None,
    user_checks: Sequence[UserCheck],
    make_workspace: MakeWorkspace,
) -> dict[str, CheckResult]:
    """The failing checks, each classified against a run of it on the base."""
    out: dict[str, CheckResult] = {}
    with workspace.temporary_root() as root:
        checkout = workspace.checkout(repo, base_sha, os.path.join(root, "checkout"))
        ws = make_workspace(root, checkout)
        command = install_command(checkout)
        if command is not None:
            installed = process.run_shell(command, cwd=checkout, env=ws.env,
                                          timeout=ws.timeout, wrap=ws.wrap,
                                          log=ws.log("baseline-install"))
            if not installed.ok:
                note = f"; baseline: the base does not install either (`{command}`)"
                return {k: dataclasses.replace(r, summary=r.summary + note)
                        for k, r in failing.items()}
        ws = dataclasses.replace(ws, sealed=True)  # later commands see it through an overlay
        if "install" in failing:
            out["install"] = _classify_whole(failing["install"], True)
        if "suite" in failing and test_command is not None:
            base_run = run_tests(ws, test_command, os.path.join(ws.scratch, "baseline.xml"),
                                 log=ws.log("baseline-suite"))
            out["suite"] = classify_suite(failing["suite"], base_run.counts, base_run.passed)
        for check in user_checks:
            if check.name in failing:
                done = process.run_shell(check.run, cwd=checkout, env=ws.env,
                                         timeout=check.timeout or ws.timeout,
                                         log=ws.log(f"baseline-check-{check.name}"),
                                         wrap=ws.wrap)
                out[check.name] = _classify_whole(failing[check.name], done.ok, done.output)
    return out
