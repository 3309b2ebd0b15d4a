"""What a check module is, for mypy: pre-commit's `lang_base.Language`, for checks.

Every check module declares `ID`, `TITLE` and `EXPLANATION` once (the JSON, `gate explain`,
the docs and the annotations' titles all read them); a diff check also has `run(ctx)`. The
runtime checks' `run` functions take what each needs and are called by the engine directly.
"""
from __future__ import annotations

from typing import Protocol

from gate.engine.context import DiffContext
from gate.models import CheckResult


class Check(Protocol):
    ID: str
    TITLE: str
    EXPLANATION: str


class DiffCheck(Check, Protocol):
    def run(self, ctx: DiffContext) -> CheckResult: ...
