"""The special cases' mutants: each `special-cased-input` line's branch deleted (`if C` →
`if False`) in place of the line's usual mutant, ahead of the budget. Where a test fails
without the branch, that test passes only through the special case: the finding says so,
naming it."""
from __future__ import annotations

from collections.abc import Sequence

from gate.checks import common
from gate.models import Finding, Severity
from gate.mutants import apply
from gate.mutants.lines import Changed
from gate.mutants.mutant import Mutant
from gate.outcomes import junit
from gate.pinned.runs import MutantRun
from gate.pinned.special_cases import SpecialCase

RULE = "special-cased-input"


def chosen(mutants: Sequence[Mutant], special: Sequence[SpecialCase],
           code: Sequence[Changed]) -> tuple[Mutant, ...]:
    """`mutants` with each special case's line given its branch deleted instead, first."""
    texts = {c.path: c.text for c in code}
    deleted = [m for s in special if s.path in texts
               and (m := apply.branch_deleted(s.path, texts[s.path], s.line)) is not None]
    lines = {(m.path, m.line) for m in deleted}
    return (*deleted, *(m for m in mutants if (m.path, m.line) not in lines))


def findings(special: Sequence[SpecialCase], killed: Sequence[MutantRun],
             severity: Severity) -> list[Finding]:
    """One finding per special case; where deleting its branch made tests fail, named."""
    by_line = {(d.mutant.path, d.mutant.line): d for d in killed
               if d.mutant.kind == "branch" and d.mutant.after.endswith(("False", "false"))}
    out = []
    for s in special:
        d = by_line.get((s.path, s.line))
        failing = None
        if d is not None and d.run is not None:
            failed, _ = junit.split_failed(d.run.failed_tests)
            failing = common.listed(failed, 3) if failed else "the tests"
        out.append(Finding(s.path, s.line, RULE, s.message(failing), severity=severity))
    return out
