"""`gate init --check`: the proposed config tried once on HEAD before anything is written, as
a run of the gate would: a fresh checkout, the install, one suite run, the user checks, in
the isolation boundary. What fails is shown with its summary, so the config that is written
is one that passes (or the user knows what to fix first)."""
from __future__ import annotations

import dataclasses
from typing import Any

from gate.checks import base_tests
from gate.engine import config, runtime
from gate.engine.change import Change
from gate.engine.context import DiffContext
from gate.engine.progress import Progress
from gate.execution import isolation
from gate.models import CheckResult
from gate.vcs import git


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


def lines(results: list[CheckResult]) -> list[str]:
    """What `gate init --check` prints: each check, its status and summary, and each failing
    check's first finding or its detail's first line."""
    out = []
    for r in results:
        optional = "" if r.required else " (optional)"
        out.append(f"gate init: tried on HEAD: {r.id}{optional}: {r.status}: {r.summary}")
        if _bad(r):
            first = (r.findings[0].message if r.findings else
                     next((x for x in r.detail.splitlines() if x.strip()), ""))
            if first:
                out.append(f"gate init:   {first[:300]}")
    return out
