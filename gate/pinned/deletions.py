"""The special cases' mutants: each `special-cased-input` line's branch deleted (`if C` →
`if False`) in place of the line's usual mutant, ahead of the budget. Where a test fails
without the branch, that test passes only through the special case: the finding says so,
naming it. Where every test survives the deletion, the general path gives that input the
same answer: the branch is a fast path (`if shape == (3, 3): return IDENTITY_3`), no
finding, and the summary says so. Not run (the floor spent), the finding stands."""
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


def is_deletion(mutant: Mutant) -> bool:
    """Whether `mutant` is a special case's deleted branch (`chosen`)."""
    return mutant.kind == "branch" and mutant.after in ("if False", "if false")


def findings(special: Sequence[SpecialCase], killed: Sequence[MutantRun],
             agreed: Sequence[MutantRun], severity: Severity) -> list[Finding]:
    """One finding per special case; where deleting its branch made tests fail, named. None
    where every test survived its deletion (`agreed`): the general path gives that input the
    same answer, so the branch is a fast path, not what makes the tests pass."""
    by_line = {(d.mutant.path, d.mutant.line): d for d in killed if is_deletion(d.mutant)}
    # two special cases of one input cover for each other: deleting either changes nothing
    once = {s.value for s in special if sum(t.value == s.value for t in special) == 1}
    fast = {(d.mutant.path, d.mutant.line) for d in agreed} & {
        (s.path, s.line) for s in special if s.value in once}
    out = []
    for s in special:
        if (s.path, s.line) in fast:
            continue
        d = by_line.get((s.path, s.line))
        failing = None
        if d is not None and d.run is not None:
            failed, _ = junit.split_failed(d.run.failed_tests)
            failing = common.listed(failed, 3) if failed else "the tests"
        out.append(Finding(s.path, s.line, RULE, s.message(failing), severity=severity))
    return out
