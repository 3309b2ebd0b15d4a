"""base-tests: the base branch's test files, put back over the head code, still pass."""
from __future__ import annotations

import fnmatch
import os
import posixpath
import shlex

from gate.engine.context import DiffContext, Workspace
from gate.execution.overlay import overlay
from gate.lang import testfiles
from gate.models import CheckResult, Finding, Status
from gate.outcomes import detail
from gate.outcomes.pytest_command import single_pytest_args
from gate.outcomes.testrun import run_tests

ID = "base-tests"
TITLE = "The base's tests still pass on the head code"
EXPLANATION = """\
Puts the base versions of the test files that the change touched back over the head
checkout, with the base's test infrastructure (every conftest.py, the pytest configuration,
JavaScript runner configs), removes the test files the change added, and runs the tests once
more. A failure means the change altered behaviour that an existing test pinned down: either
the intended fix of a bug, or a regression hidden by editing that test. A person decides.

Resolve: if the behaviour change is intended, say so in the pull request and have a reviewer
approve it; otherwise restore the behaviour the base test expects."""

BASE_INI = ".gate-base-pytest.ini"
_RUNNER_CONFIGS = ("jest.config.*", "vitest.config.*", ".mocharc.*", "ava.config.*")


def _is_runner_config(path: str) -> bool:
    name = posixpath.basename(path)
    return testfiles.is_test_infrastructure(path) or any(
        fnmatch.fnmatch(name, pattern) for pattern in _RUNNER_CONFIGS
    )


def _base_overlay(ctx: DiffContext) -> tuple[dict[str, bytes | None], list[str]]:
    """What to put back (path -> base content or None), and the base test files to run."""
    touched = [f for f in ctx.files if not f.binary
               and (ctx.is_test_file(f.path) or _is_runner_config(f.path))]
    base_blobs = ctx.read(ctx.base, [f.path for f in touched])
    files = {f.path: base_blobs[f.path] for f in touched}
    to_run = sorted(p for p, blob in files.items()
                    if blob is not None and ctx.is_test_file(p) and p.endswith(".py"))
    return files, to_run


def _finding(name: str, file: str | None, line: int | None, message: str) -> Finding:
    text = (f"the base version of {name} fails on the head code: the change altered behaviour "
            "this test pinned down (a bug fix, or a regression hidden by editing the test)")
    if message:
        text += f": {message.splitlines()[0][:200]}"
    return Finding(file or ".", line or 1, "base-test-failed", text, severity="warning")


def run(ctx: DiffContext, ws: Workspace, command: str) -> CheckResult:
    files, to_run = _base_overlay(ctx)
    base_cfg = ctx.pytest_config(ctx.base)
    config_changed = base_cfg != ctx.pytest_config(ctx.head)
    infrastructure_changed = any(_is_runner_config(p) for p in files)
    if not to_run and not infrastructure_changed and not config_changed:
        why = "no base test file changed" if files else "no test file changed"
        return CheckResult(ID, TITLE, "passed", False, why)
    extra: list[str] = []
    if base_cfg.path is not None or config_changed:
        files[BASE_INI] = base_cfg.to_ini().encode()
        extra = ["-c", os.path.join(ws.checkout, BASE_INI), "--rootdir", ws.checkout]
    scoped = bool(to_run) and single_pytest_args(command) is not None
    full = command + "".join(" " + shlex.quote(p) for p in to_run) if scoped else command
    with overlay(ws.checkout, files):
        result = run_tests(ws, full, os.path.join(ws.scratch, "base-tests.xml"),
                           extra_addopts=extra, log=ws.log("base-tests"))
    what = f"{len(to_run)} base test file(s)" if scoped else "the suite with the base's tests"
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

