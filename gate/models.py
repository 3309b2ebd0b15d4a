"""Frozen records shaped like the JSON contract of DESIGN.md: reporters only consume them."""
from __future__ import annotations

import dataclasses
from typing import Any, Literal

Status = Literal["passed", "failed", "timeout", "error", "skipped"]
Severity = Literal["error", "warning", "notice"]
Verdict = Literal["pass", "needs-review", "fail"]


@dataclasses.dataclass(frozen=True)
class Finding:
    path: str
    line: int
    rule: str
    message: str
    severity: Severity = "warning"
    end_line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "end_line": self.end_line if self.end_line is not None else self.line,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }


@dataclasses.dataclass(frozen=True)
class TestCounts:
    """The suite's tests over its N runs: passed in every run, failed in every run it ran in,
    flaky (failed in some), skipped (in the worst run)."""
    __test__ = False  # not a pytest test class, whatever its name
    passed: int
    failed: int
    flaky: int
    skipped: int

    def to_json(self) -> dict[str, int]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class CheckResult:
    id: str
    title: str
    status: Status
    required: bool
    summary: str
    detail: str = ""
    findings: tuple[Finding, ...] = ()
    duration_s: float = 0.0
    tests: TestCounts | None = None  # the suite's, when the runner's counts were read

    def to_json(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "required": self.required,
            "summary": self.summary,
            "detail": self.detail,
            "duration_s": round(self.duration_s, 2),
            "findings": [f.to_json() for f in self.findings],
        }
        if self.tests is not None:
            data["tests"] = self.tests.to_json()
        return data


@dataclasses.dataclass(frozen=True)
class Isolation:
    """The boundary the judged code ran in: `namespaces` or `none` (DESIGN.md, trust boundary).
    `warning` is what a person is told on stderr when the gate fell back to `none`; it is not
    part of the JSON."""

    level: str
    detail: str
    warning: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "detail": self.detail}


NOTHING_RUN = Isolation("none", "no command of the change was run (diff checks only)")


@dataclasses.dataclass(frozen=True)
class Report:
    verdict: Verdict
    base: str
    head: str
    duration_s: float
    checks: tuple[CheckResult, ...]
    isolation: Isolation = NOTHING_RUN
    shard: dict[str, Any] | None = None  # a shard's partial report: what `gate merge` reads
    quick: dict[str, Any] | None = None  # `gate run --quick`'s: not the full gate

    def to_json(self) -> dict[str, Any]:
        data = {
            "verdict": self.verdict,
            "base": self.base,
            "head": self.head,
            "duration_s": round(self.duration_s, 2),
            "isolation": self.isolation.to_json(),
            "checks": [c.to_json() for c in self.checks],
        }
        if self.shard is not None:
            data["shard"] = self.shard
        if self.quick is not None:
            data["quick"] = self.quick
        return data
