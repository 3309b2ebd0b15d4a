"""The JSON answer of DESIGN.md, for agents and for the other front doors."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gate.errors import GateError
from gate.models import CheckResult, Finding, Isolation, Report, TestCounts


def render(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2) + "\n"


def finding(data: Mapping[str, Any]) -> Finding:
    return Finding(path=str(data["path"]), line=int(data["line"]), rule=str(data["rule"]),
                   message=str(data["message"]), severity=data["severity"],
                   end_line=int(data.get("end_line") or data["line"]))


def _check(data: Mapping[str, Any]) -> CheckResult:
    return CheckResult(
        id=str(data["id"]), title=str(data["title"]), status=data["status"],
        required=bool(data["required"]), summary=str(data["summary"]),
        detail=str(data.get("detail", "")),
        findings=tuple(finding(f) for f in data.get("findings", [])),
        duration_s=float(data.get("duration_s", 0.0)),
        tests=_tests(data.get("tests")))


def _tests(data: Mapping[str, Any] | None) -> TestCounts | None:
    if data is None:
        return None
    return TestCounts(passed=int(data["passed"]), failed=int(data["failed"]),
                      flaky=int(data["flaky"]), skipped=int(data["skipped"]))


def _isolation(data: object) -> Isolation:
    if not isinstance(data, dict):  # a report from a gate before isolation was reported
        return Isolation("none", "not stated by the report")
    return Isolation(str(data["level"]), str(data["detail"]))


def load(path: str) -> Report:
    """The report that `gate run --report FILE` wrote."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return Report(verdict=data["verdict"], base=str(data["base"]), head=str(data["head"]),
                      duration_s=float(data["duration_s"]),
                      checks=tuple(_check(c) for c in data["checks"]),
                      isolation=_isolation(data.get("isolation")),
                      shard=data.get("shard") if isinstance(data.get("shard"), dict) else None,
                      quick=data.get("quick") if isinstance(data.get("quick"), dict) else None)
    except OSError as e:
        raise GateError(f"cannot read the report {path}: {e.strerror}") from None
    except (ValueError, KeyError, TypeError) as e:
        raise GateError(f"{path} is not a gate JSON report (from `gate run --report FILE`): "
                        f"{type(e).__name__}: {e}") from None


