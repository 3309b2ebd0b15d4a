"""SARIF 2.1.0, as `github/codeql-action/upload-sarif` takes it, so that findings can live in
code scanning too.

One rule per check (its id, title and explanation from the registry); one result per finding,
located by a path relative to the repository root (`%SRCROOT%`) and a 1-based line region. The
finding's own rule (`pytest.mark.skip`, ...) is kept in the result's properties and message.
"""
from __future__ import annotations

import json
from typing import Any

from gate import __version__
from gate.checks import registry
from gate.models import CheckResult, Finding, Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "notice": "note"}


def _rule(check: CheckResult) -> dict[str, Any]:
    known = check.id in registry.ORDER
    explanation = registry.explanation(check.id) if known else check.title
    return {
        "id": check.id,
        "name": check.id,
        "shortDescription": {"text": check.title},
        "help": {"text": explanation},
    }


def _result(check_id: str, rule_index: int, finding: Finding) -> dict[str, Any]:
    start = max(finding.line, 1)
    end = max(finding.end_line or start, start)
    return {
        "ruleId": check_id,
        "ruleIndex": rule_index,
        "level": _LEVELS[finding.severity],
        "message": {"text": f"{finding.message} [{finding.rule}]"},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": finding.path, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": start, "endLine": end},
            },
        }],
        "partialFingerprints": {
            "gateFinding/v1": f"{check_id}:{finding.rule}:{finding.path}:{finding.message}",
        },
        "properties": {"rule": finding.rule},
    }


def document(report: Report) -> dict[str, Any]:
    order = [c.id for c in report.checks]
    results = [
        _result(c.id, order.index(c.id), f) for c in report.checks for f in c.findings
    ]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "gate",
                "version": __version__,
                "rules": [_rule(c) for c in report.checks],
            }},
            "results": results,
            "properties": {"verdict": report.verdict, "base": report.base, "head": report.head},
        }],
    }


def render(report: Report) -> str:
    return json.dumps(document(report), indent=2) + "\n"
