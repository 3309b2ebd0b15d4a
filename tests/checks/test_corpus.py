"""The corpus: one folder per case under tests/corpus/, built into a real git repository.

`base/` is the whole tree at the base commit, `head/` the whole tree at the head (a file absent
from head/ is deleted), and `expected.json` lists every finding of every diff check, exactly:
`{"check", "path", "line", "rule", "severity"}`, plus `"message"`, a part of the message, where
the wording matters. An honest change expects `[]`. A new case is a new folder.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate.checks import registry
from gate.engine import runner

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


def _tree(root: Path) -> dict[str, str]:
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _findings(report_checks: Any, expected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's findings, shaped like the expected ones (a message part where given)."""
    wants = {(e["check"], e["path"], e["line"], e["rule"]): e.get("message") for e in expected}
    out = []
    for check in report_checks:
        if check.id not in registry.DIFF:
            continue
        for f in check.findings:
            row: dict[str, Any] = {"check": check.id, "path": f.path, "line": f.line,
                                   "rule": f.rule, "severity": f.severity}
            part: str | None = wants.get((check.id, f.path, f.line, f.rule))
            if part is not None:
                row["message"] = part if part in f.message else f.message
            out.append(row)
    return out


def test_corpus_is_large_and_half_honest() -> None:
    honest = [c for c in CASES if json.loads((CORPUS / c / "expected.json").read_text()) == []]
    assert len(CASES) >= 80
    assert len(honest) * 2 >= len(CASES)


@pytest.mark.parametrize("case", CASES)
def test_case(tmp_path: Path, case: str) -> None:
    folder = CORPUS / case
    base, head = _tree(folder / "base"), _tree(folder / "head")
    changes: dict[str, str | None] = {p: None for p in base if p not in head}
    changes.update(head)
    repo, _, _ = make_change(tmp_path / "repo", base or {"README.md": "x\n"}, changes)
    expected = json.loads((folder / "expected.json").read_text())
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    assert sorted(_findings(report.checks, expected), key=_key) == sorted(expected, key=_key)


def _key(finding: dict[str, Any]) -> tuple[str, str, int, str]:
    return finding["check"], finding["path"], finding["line"], finding["rule"]
