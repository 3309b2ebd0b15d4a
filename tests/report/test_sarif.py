"""`--format sarif`: SARIF 2.1.0 as github/codeql-action/upload-sarif takes it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.checks import registry
from gate.models import CheckResult, Finding, Report
from gate.report import sarif


def test_scan_writes_sarif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, head = make_change(
        tmp_path / "r",
        {"tests/test_a.py": "def test_one():\n    assert 1\n"},
        {"tests/test_a.py": "import pytest\n\n\n@pytest.mark.skip\ndef test_one():\n"
                            "    assert 1\n",
         "src/m.py": "x = 1  # noqa\n"})
    cli.main(["scan", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "sarif"])
    doc = json.loads(capsys.readouterr().out)
    assert (doc["version"], doc["$schema"]) == (
        "2.1.0", "https://json.schemastore.org/sarif-2.1.0.json")
    (run,) = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "gate"
    assert [r["id"] for r in driver["rules"]] == list(registry.ORDER)
    assert driver["rules"][5]["shortDescription"] == {"text": registry.title("skip-markers")}
    assert driver["rules"][5]["help"] == {"text": registry.explanation("skip-markers")}
    located = [(r["ruleId"], r["ruleIndex"], r["level"],
                r["locations"][0]["physicalLocation"]["artifactLocation"],
                r["locations"][0]["physicalLocation"]["region"], r["properties"]["rule"])
               for r in run["results"]]
    assert located == [
        ("skip-markers", 5, "error", {"uri": "tests/test_a.py", "uriBaseId": "%SRCROOT%"},
         {"startLine": 4, "endLine": 4}, "pytest.mark.skip"),
        ("escapes", 6, "warning", {"uri": "src/m.py", "uriBaseId": "%SRCROOT%"},
         {"startLine": 1, "endLine": 1}, "noqa"),
    ]
    assert run["results"][0]["message"]["text"].endswith("[pytest.mark.skip]")
    assert run["properties"]["head"] == head


def test_notices_are_notes_and_lines_start_at_one() -> None:
    report = Report("needs-review", "b" * 40, "a" * 40, 1.0, (CheckResult(
        "lockfiles", "Lockfiles", "failed", False, "1",
        findings=(Finding("uv.lock", 0, "changed", "changed", "notice"),)),))
    (result,) = sarif.document(report)["runs"][0]["results"]
    assert result["level"] == "note"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1, "endLine": 1}
    assert result["partialFingerprints"] == {"gateFinding/v1": "lockfiles:changed:uv.lock:changed"}
