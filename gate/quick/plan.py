"""What `gate run --quick` runs for a kind of change, and why: the lint and type-check user
checks always; the suite once for a bug fix (code and a test); else the build checks, or
nothing more."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from gate.checks import user_kinds
from gate.engine.config import UserCheck
from gate.quick.change_kind import DESCRIPTIONS, Kind

ALWAYS = ("lint", "typecheck")


@dataclasses.dataclass(frozen=True)
class Plan:
    kind: Kind
    checks: tuple[UserCheck, ...]  # the user checks to run, in the config's order
    suite: bool  # one run of the suite
    why: str

    def ran(self) -> list[str]:
        """What runs, by check id, in the report's order (the diff checks aside); for no
        change, nothing."""
        if self.kind == "none":
            return []
        return ["install", *(["suite"] if self.suite else []), *(c.name for c in self.checks)]


def _names(checks: Sequence[UserCheck]) -> str:
    return ", ".join(c.name for c in checks) or "none configured"


def plan(kind: Kind, checks: Sequence[UserCheck]) -> Plan:
    first = [c for c in checks if user_kinds.kind_of(c) in ALWAYS]
    builds = [c for c in checks if user_kinds.kind_of(c) == "build"]
    what = DESCRIPTIONS[kind]
    if kind == "none":
        return Plan(kind, (), False, f"{what}: nothing to run")
    lint = f"the lint and type checks ({_names(first)})"
    if kind == "code+tests":
        return Plan(kind, tuple(first), True, f"{what}: {lint}, and the suite once")
    chosen = tuple(c for c in checks if c in first or c in builds)
    if builds:
        return Plan(kind, chosen, False, f"{what}: {lint}, and the build ({_names(builds)}); "
                    "the tests run quickly only for a bug fix")
    return Plan(kind, chosen, False, f"{what}: {lint}; no build check is configured, so "
                "there is nothing more to run quickly")
