"""`gate init --check`: the proposed config tried once on HEAD before anything is written, as
a run of the gate would: a fresh checkout, the install, one suite run, the user checks, in
the isolation boundary. What fails is shown with its summary, so the config that is written
is one that passes (or the user knows what to fix first)."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gate.checks import base_tests
from gate.engine import config, runtime
from gate.engine.change import Change
from gate.engine.context import DiffContext
from gate.engine.progress import Progress
from gate.execution import isolation
from gate.models import CheckResult
from gate.vcs import git

_SHOWN = 8  # the output's lines shown for a failing check


def run(repo: str, proposal: dict[str, Any], progress: Progress | None = None,
        ) -> list[CheckResult]:
    """The runtime checks of `proposal` on HEAD (one suite run; base-tests left out: no
    change)."""
    head = git.resolve_commit(repo, "HEAD")
    cfg = dataclasses.replace(config.parse(proposal, "the proposed [tool.gate]"), runs=1,
                              cache=False)
    change = Change(repo, head, head, cfg, DiffContext(repo, head, head, cfg, []))
    boundary = isolation.choose(cfg.isolation, (repo,), tmp_mb=cfg.tmp_size_mb)
    ran = runtime.checks(change, progress or Progress(), boundary)
    return [r for k, r in ran.checks.items() if k != base_tests.ID]


def _bad(result: CheckResult) -> bool:
    return result.status in ("failed", "error", "timeout")


def failing(results: list[CheckResult]) -> list[CheckResult]:
    """The required checks that did not pass (an optional one is reported, never counted)."""
    return [r for r in results if r.required and _bad(r)]


def _command(result: CheckResult, proposal: Mapping[str, Any]) -> str | None:
    """The command a check of the proposal ran (the suite's `test`, a user check's `run`)."""
    if result.id == "suite":
        test = proposal.get("test")
        return test if isinstance(test, str) else None
    return next((c.get("run") for c in proposal.get("checks", ())
                 if isinstance(c, dict) and c.get("name") == result.id), None)


def lines(results: list[CheckResult], proposal: Mapping[str, Any] | None = None) -> list[str]:
    """What `gate init --check` prints: each check, its status and summary; for each failing
    check, its first finding, or the command it ran, that it fails on HEAD itself (before
    any change: every pull request would fail alike, which the gate cannot judge) and the
    first lines of its output where the error is."""
    out = []
    for r in results:
        optional = "" if r.required else " (optional)"
        out.append(f"gate init: tried on HEAD: {r.id}{optional}: {r.status}: {r.summary}")
        if not _bad(r):
            continue
        if r.findings:
            out.append(f"gate init:   {r.findings[0].message[:300]}")
            continue
        command = _command(r, proposal or {})
        out.append("gate init:   " + (f"`{command}` " if command else "it ") +
                   "fails on HEAD itself, before any change: every pull request would fail "
                   "alike (exit 2: the gate cannot judge it); its output:")
        shown = [x for x in r.detail.splitlines() if x.strip()][:_SHOWN]
        out += [f"gate init:   | {x[:300]}" for x in shown]
    return out
