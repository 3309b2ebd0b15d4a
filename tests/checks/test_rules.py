"""`gate explain` takes the rule a finding ends with (`gate/checks/rules.py`): the report's
last line says to run it, and every finding line ends with `[rule]`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gate import cli
from gate.checks import rules

GATE = Path(__file__).resolve().parents[2] / "gate"
# How the code gives a finding its rule: `rule="x"`, `Finding(path, line, "x", ...)`, or a
# module's `RULE = "x"` (`NEW`, `MISSING`).
_LITERALS = (re.compile(r'rule="([a-z][\w.:\- ]+)"'),
             re.compile(r'Finding\([^,()]+,[^,()]+,\s*"([a-z][\w.:\-]+)"'),
             re.compile(r'^(?:RULE|NEW|MISSING|NOT_RUN|SKIPPED) = "([a-z][\w.\-]+)"', re.M))


@pytest.mark.parametrize(("rule", "check"), [("not-run-at-head", "tests-removed"),
                                             ("survived-mutant", "pinned"),
                                             ("type: ignore", "escapes")])
def test_explain_takes_a_findings_rule(rule: str, check: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `no check called 'not-run-at-head'`, exit 2."""
    assert cli.main(["explain", rule]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{rule}: a rule of the `{check}` check")


def test_every_rule_the_code_gives_has_its_check() -> None:
    found = {m.group(1): str(path.relative_to(GATE)) for path in GATE.rglob("*.py")
             for pattern in _LITERALS for m in pattern.finditer(path.read_text())}
    assert len(found) > 20  # the patterns still read the code
    assert {r: p for r, p in found.items() if rules.check_of(r) is None} == {}


def test_an_unknown_id_says_where_the_check_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", "no-such-rule-x"]) == 2
    assert "path:line: CHECK-ID: message [rule]" in capsys.readouterr().err
