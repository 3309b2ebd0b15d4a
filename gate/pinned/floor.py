"""`pinned` always judges: at least one mutant of each changed function (of each changed file,
for the lines outside every function) runs whatever the time budget, up to a floor of wall
time (`FLOOR_S`, said in the summary when mutants were left out). Those mutants go first:
the special cases' deleted branches (`deletions`), then each unit's first mutant; then the
rest, within the budget."""
from __future__ import annotations

from collections.abc import Sequence

from gate.mutants import functions
from gate.mutants.lines import Changed
from gate.mutants.mutant import Mutant

FLOOR_S = 60.0


def ordered(mutants: Sequence[Mutant], code: Sequence[Changed], first: int = 0,
            ) -> tuple[tuple[Mutant, ...], int]:
    """`mutants` with the first of each changed function's ahead of the rest, and how many
    run whatever the budget (`first`: the leading ones that must run in any case)."""
    texts = {c.path: c.text for c in code}
    units: dict[str, dict[int, int]] = {}
    for path in {m.path for m in mutants}:
        units[path] = functions.enclosing(path, texts.get(path, b""),
                                          [m.line for m in mutants if m.path == path])
    must = list(mutants[:first])
    seen = {(m.path, units[m.path][m.line]) for m in must}
    for m in mutants[first:]:
        unit = (m.path, units[m.path][m.line])
        if unit not in seen:
            seen.add(unit)
            must.append(m)
    rest = [m for m in mutants if m not in must]
    return (*must, *rest), len(must)
