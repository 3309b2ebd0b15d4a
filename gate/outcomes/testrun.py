"""One run of the test command, with per-test outcomes where the runner can report them."""
from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Sequence
from typing import Any

from gate.execution import evidence_channel, hidden_paths, process, reaper
from gate.execution.run_workspace import Workspace
from gate.outcomes import evidence, node_witness
from gate.outcomes import reading as results
from gate.outcomes.location import locate
from gate.outcomes.pytest_command import is_pytest
from gate.outcomes.record import CaseResult, Counts
from gate.outcomes.runners import go_witness, reports
from gate.outcomes.runners import pytest as pytest_runner

# pytest's exit codes other than 0 and 1, named in a run's summary.
_PYTEST_EXITS = {2: "interrupted", 3: "internal error", 4: "usage error",
                 5: "no tests collected"}


@dataclasses.dataclass(frozen=True)
class TestRun:
    completed: process.Completed
    counts: Counts | None  # None: no runner's report or summary was found
    expects_report: bool = False  # pytest run directly: it always writes its JUnit report
    running: str | None = None  # the test a run cut at its time limit was running
    # what `pinned`'s line recorder sent on the evidence channel (gate/pinned/ran.py)
    lines: tuple[dict[str, Any], ...] = ()
    heard: bool = False  # the evidence channel got anything at all from the judged process

    @property
    def failed_tests(self) -> list[CaseResult]:
        return self.counts.failures() if self.counts else []

    @property
    def passed(self) -> bool:
        """Exit status and the runner's counts must agree: a run passes only if both say so
        (a run that exits 0 with failures, or having run no test, does not pass)."""
        if not self.completed.ok or self.cut_short:
            return False
        if self.counts is None:
            return not self.expects_report
        return self.counts.failed == 0 and self.counts.passed > 0

    @property
    def cut_short(self) -> bool:
        """A pytest session that never sent its end, and the command exited 0: what it sent
        before is all there is, and the run does not pass on it."""
        return self.counts is not None and any(
            e.startswith("end-missing:") for e in self.counts.evidence)

    def problem(self) -> str:
        """Why the run did not pass, in a few words."""
        c = self.completed
        if c.timed_out:
            return (f"timed out at {c.duration_s:.0f}s, the limit (`timeout` in [tool.gate], "
                    "or --timeout)" + (f", while running {self.running}" if self.running
                                       else ""))
        if c.not_found:
            return "command not found" + hidden_paths.note(c.output)
        if c.returncode != 0:
            if pytest_runner.gate_plugin_missing(c.output):
                return (f"exit {c.returncode}: pytest could not import the gate's plugin; the "
                        "command replaces PYTHONPATH and runs an interpreter outside the gate's "
                        "fresh environment: keep what is there (PYTHONPATH=src:$PYTHONPATH)")
            runner = self.counts.runner if self.counts else None
            if runner == "pytest" and c.returncode in _PYTEST_EXITS:
                return f"exit {c.returncode}: {_PYTEST_EXITS[c.returncode]}"
            return f"exit {c.returncode}"
        if self.cut_short and self.counts is not None and self.counts.runner != "pytest":
            return (f"exit 0 but {self.counts.runner} never sent the end of its run to the "
                    "gate: the run was cut short")
        if (self.counts is None and self.expects_report) or self.cut_short:
            return "exit 0 but pytest wrote no report: the session was cut short (os._exit?)"
        if self.counts is not None and self.counts.failed:
            return f"exit 0 but {self.counts.failed} test(s) failed"
        return "exit 0 but no test ran"


def run_tests(
    ws: Workspace,
    command: str,
    report: str,
    *,
    extra_addopts: Sequence[str] = (),
    log: str | None = None,
) -> TestRun:
    """Run `command` in the checkout; runners that can are asked for per-test reports through
    the environment (pytest: PYTEST_ADDOPTS), so the user's command is not edited."""
    env = results.report_env(ws.env, report, extra_addopts,
                             pytest_runner.config_pins(ws.checkout, ws.scratch))
    witness = go_witness.env(env, report + ".go-witness") if go_witness.wanted(
        ws.checkout, command) else {}
    env.update(witness)
    completed, sent = _run(ws, command, env, report, log)
    if not completed.ok and pytest_runner.plugin_missing(completed.output):
        # An interpreter outside the fresh environment, with PYTHONPATH replaced, could not
        # import the gate's session plugin: run again without it (one report for the last
        # pytest session, as pytest alone writes).
        again = log[:-len(".log")] + "-again.log" if log else None  # a log is made new
        completed, sent = _run(ws, command, pytest_runner.without_plugin(env), report, again)
    found = evidence.read(sent, ws.checkout)
    counts = evidence.reconcile(
        results.read(completed.output, report, found.records), found, output=completed.output,
        returncode=completed.returncode, timed_out=completed.timed_out,
        pytest_alone=is_pytest(command))
    counts = go_witness.judged(counts, found.go, output=completed.output,
                               returncode=completed.returncode,
                               expected=bool(witness) and go_witness.alone(command))
    counts = node_witness.reconcile(counts, found, returncode=completed.returncode,
                                    timed_out=completed.timed_out, checkout=ws.checkout)
    running = found.running() if completed.timed_out else None
    return TestRun(completed, _relative(locate(counts, ws.checkout), ws.checkout)
                   if counts else None, expects_report=is_pytest(command), running=running,
                   lines=tuple(found.lines),
                   heard=bool(found.sessions or found.records or found.watched or found.lines
                              or found.go or found.node))


def _run(ws: Workspace, command: str, env: dict[str, str], report: str,
         log: str | None) -> tuple[process.Completed, list[bytes]]:
    """The command's run, and the lines its recorders sent on the evidence channel."""
    reports.clear(report)  # first: it removes what pytest's would not (a directory, a FIFO)
    pytest_runner.clear(report)
    with contextlib.ExitStack() as stack:
        with reaper.starting(env) as may:  # an ended run (Ctrl-C) makes no FIFO in its root
            channel = stack.enter_context(evidence_channel.opened(report + CHANNEL)) if (
                may) else None
        sent = {"GATE_EVIDENCE": channel.path, "GATE_CHECKOUT": ws.checkout} if channel else {}
        completed = process.run_argv(
            ["/bin/sh", "-c", command], cwd=ws.checkout, env={**env, **sent},
            timeout=ws.timeout, display=command, log=log, wrap=ws.wrap_tests,
            memory_kb=ws.conditions.memory_kb(process.MEMORY_LIMIT_KB))
    return completed, channel.lines if channel else []


CHANNEL = ".evidence"  # beside the report: the FIFO the recorders send on


def _relative(counts: Counts, checkout: str) -> Counts:
    """Test names and files without the checkout's path (node:test names a file's tests by
    its absolute path in some versions, the preloads' reports give absolute files): the same
    test has the same name and file in every checkout."""
    prefix = checkout.rstrip("/") + "/"
    roots = dict.fromkeys([prefix, os.path.realpath(checkout).rstrip("/") + "/"])
    cases = []
    for c in counts.cases:
        if prefix in c.name:
            c = dataclasses.replace(c, name=c.name.replace(prefix, ""))
        root = next((r for r in roots if c.file and c.file.startswith(r)), None)
        if c.file and root is not None:
            c = dataclasses.replace(c, file=c.file[len(root):])
        cases.append(c)
    return dataclasses.replace(counts, cases=tuple(cases))
