"""base-tests: the base branch's test files, put back over the head code, still pass."""
from __future__ import annotations

import os

from gate.checks import base_tree
from gate.engine.context import DiffContext, Workspace
from gate.execution.overlay import overlay
from gate.models import CheckResult, Finding, Status
from gate.outcomes import detail, scoped_command
from gate.outcomes.testrun import run_tests

ID = "base-tests"
TITLE = "The base's tests still pass on the head code"
EXPLANATION = """\
Puts the base's whole test tree back over the head checkout wherever the change touched
it: test files, data, fixtures, snapshots, helpers, __init__.py, conftest.py, the pytest
configuration and JavaScript runner configs; what the head added there, and what the install
left there, is removed for the run. In Rust, the base's `#[cfg(test)]` modules are put back
into the head's source files; in Go, the base's `*_test.go` files. Then it runs the base's
tests once more: only the restored files when the runner takes paths (pytest, Jest, Vitest,
Mocha, node:test, cargo's integration tests, go test), else the whole test command.
A failure means the change altered behaviour that an existing test pinned down: either the
intended fix of a bug, or a regression hidden by editing that test. A person decides.

Resolve: if the behaviour change is intended, say so in the pull request and have a reviewer
approve it; otherwise restore the behaviour the base test expects."""

BASE_INI = ".gate-base-pytest.ini"


def _finding(name: str, file: str | None, line: int | None, message: str) -> Finding:
    text = (f"the base version of {name} fails on the head code: the change altered behaviour "
            "this test pinned down (a bug fix, or a regression hidden by editing the test)")
    if message:
        text += f": {message.splitlines()[0][:200]}"
    return Finding(file or ".", line or 1, "base-test-failed", text, severity="warning")


def _names(paths: list[str], limit: int = 5) -> str:
    shown = ", ".join(paths[:limit])
    return shown + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def run(ctx: DiffContext, ws: Workspace, command: str) -> CheckResult:
    tree = base_tree.plan(ctx, ws.checkout)
    files, to_run = dict(tree.files), tree.to_run
    base_cfg = ctx.pytest_config(ctx.base)
    config_changed = base_cfg != ctx.pytest_config(ctx.head)
    if not to_run and not tree.configs_changed and not config_changed:
        why = "no base test file changed" if files else "no test file changed"
        return CheckResult(ID, TITLE, "passed", False, why)
    extra: list[str] = []
    if base_cfg.path is not None or config_changed:
        files[BASE_INI] = base_cfg.to_ini().encode()
        extra = ["-c", os.path.join(ws.checkout, BASE_INI), "--rootdir", ws.checkout]
    narrowed = scoped_command.narrowed(command, to_run, ws.checkout)
    with overlay(ws.checkout, files):
        result = run_tests(ws, narrowed or command,
                           os.path.join(ws.scratch, "base-tests.xml"), extra_addopts=extra,
                           log=ws.log("base-tests"))
    what = (f"{len(to_run)} base test file(s) ({_names(to_run)})" if narrowed else
            "the suite with the base's tests" + (f" ({_names(to_run)})" if to_run else ""))
    findings = tuple(_finding(t.name, t.file, t.line, t.message) for t in result.failed_tests)
    duration = result.completed.duration_s
    if result.passed:
        return CheckResult(ID, TITLE, "passed", False, f"{what} pass on the head code",
                           duration_s=duration)
    status: Status = "timeout" if result.completed.timed_out else (
        "error" if result.completed.not_found else "failed")
    return CheckResult(ID, TITLE, status, False,
                       f"{what} fail on the head code ({result.problem()})",
                       detail=detail.excerpt(result.failed_tests, result.completed.output),
                       findings=findings, duration_s=duration)
