"""`pinned` always judges: the first mutant of each changed function goes first and runs
whatever the budget (the scheduler holds those to the floor, not to the budget)."""
from __future__ import annotations

from gate.mutants import apply, functions
from gate.mutants.lines import Changed
from gate.pinned import floor

CODE = b"""\
LIMIT = 3 + 4


def add(a, b):
    total = a + b
    return total * 1


def sub(a, b):
    return a - b
"""


def test_a_line_s_unit_is_its_innermost_function_or_its_file() -> None:
    assert functions.enclosing("m.py", CODE, [1, 5, 6, 10]) == {1: 0, 5: 4, 6: 4, 10: 9}
    js = b"const k = 1 + 2;\nfunction f(a) {\n  const g = (b) => b + 1;\n  return a * 2;\n}\n"
    assert functions.enclosing("m.js", js, [1, 3, 4]) == {1: 0, 3: 3, 4: 2}


def test_the_first_mutant_of_each_changed_function_runs_first_whatever_the_budget() -> None:
    found = apply.per_line("m.py", CODE, range(1, 11))
    mutants = [found[n] for n in sorted(found)]
    assert [m.line for m in mutants] == [1, 5, 6, 10]
    order, must = floor.ordered(mutants, [Changed("m.py", CODE, frozenset(found))])
    assert ([m.line for m in order], must) == ([1, 5, 10, 6], 3)
    # a special case's deleted branch, given first, is among those that must run
    order, must = floor.ordered([mutants[2], *mutants], [Changed("m.py", CODE, frozenset())],
                                first=1)
    assert ([m.line for m in order][:4], must) == ([6, 1, 10, 5], 3)
