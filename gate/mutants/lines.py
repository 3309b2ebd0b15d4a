"""Which changed lines get a mutant, within the budget.

The rule (docs/checks.md, `pinned`): every changed line of a non-test source file in Python,
JavaScript/TypeScript, Go or Rust is a candidate, unless it has nothing to test (see
`apply`); the candidates are taken file by file in turn (the files in path order, each
file's lines top to bottom: the first line of every file, then the second...) until the
budget of mutants is spent. The rest are counted, never hidden."""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Collection, Sequence

from gate.mutants import apply
from gate.mutants.mutant import Mutant


@dataclasses.dataclass(frozen=True)
class Changed:
    path: str
    text: bytes  # the head's file
    lines: Collection[int]  # its changed lines that are code (not its test modules)


@dataclasses.dataclass(frozen=True)
class Chosen:
    mutants: tuple[Mutant, ...]
    lines: int  # changed code lines read
    nothing_to_test: int  # of them, lines with no mutation (imports, logging, types...)
    over_budget: int  # lines with a mutant left out by the budget


def choose(files: Sequence[Changed], limit: int) -> Chosen:
    """Up to `limit` mutants, the files' lines in turn; only the lines taken are checked to
    parse (a line none of whose candidates parses gives way to the next), the rest counted."""
    ordered = sorted(files, key=lambda f: f.path)
    per_file = [[(f, tried)
                 for tried in apply.candidates_per_line(f.path, f.text, f.lines).values()]
                for f in ordered]
    lines = sum(len(f.lines) for f in files)
    found = sum(len(m) for m in per_file)
    taken: list[Mutant] = []
    failed = 0
    for row in itertools.zip_longest(*per_file):
        for entry in row:
            if entry is None or len(taken) >= limit:
                continue
            mutant = apply.first_that_parses(entry[0].path, entry[0].text, entry[1])
            if mutant is None:
                failed += 1
            else:
                taken.append(mutant)
        if len(taken) >= limit:
            break
    found -= failed
    return Chosen(tuple(taken), lines, lines - found, max(0, found - len(taken)))
