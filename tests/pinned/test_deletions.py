"""A special case whose deleted branch every test survives is a fast path (the general path
gives that input the same answer): no finding. Unless another special case singles out the
same input: then each covers for the other, and both stay."""
from __future__ import annotations

from gate.mutants import apply
from gate.pinned import deletions
from gate.pinned.runs import MutantRun
from gate.pinned.special_cases import SpecialCase

CODE = b"""\
def norm(v):
    if v == [3, 4]:
        return 5.0
    if v == [3, 4]:
        return 5.0
    return sum(x * x for x in v) ** 0.5
"""


def _case(line: int) -> SpecialCase:
    return SpecialCase("m.py", line, "if v == [3, 4]", "`[3, 4]`", ("tests/test_m.py", 4), True)


def _survived(line: int) -> MutantRun:
    mutant = apply.branch_deleted("m.py", CODE, line)
    assert mutant is not None and deletions.is_deletion(mutant)
    return MutantRun(mutant, None, False)


def test_a_fast_path_the_tests_survive_deleting_is_no_finding() -> None:
    assert deletions.findings([_case(2)], [], [_survived(2)], "warning") == []
    assert [f.line for f in deletions.findings([_case(2)], [], [], "warning")] == [2]


def test_two_special_cases_of_one_input_are_no_fast_paths() -> None:
    both = [_case(2), _case(4)]
    found = deletions.findings(both, [], [_survived(2), _survived(4)], "warning")
    assert [(f.line, f.rule) for f in found] == [(2, "special-cased-input"),
                                                 (4, "special-cased-input")]
