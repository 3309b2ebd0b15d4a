"""The one mutant of each changed line: the first mutation, by kind (operators.KINDS) and
then by column, after which the file still parses."""
from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from gate.lang.languages import language_of
from gate.mutants import python_mutants, syntax_mutants
from gate.mutants.mutant import Mutant
from gate.mutants.operators import KINDS

LANGUAGES = ("python", "javascript", "typescript", "tsx", "go", "rust")


def mutable(path: str) -> bool:
    """Whether the gate makes mutants of `path`'s language."""
    language = language_of(path)
    return language is not None and language.name in LANGUAGES and not path.endswith(".pyi")


def per_line(path: str, text: bytes, lines: Collection[int]) -> dict[int, Mutant]:
    """Line -> its mutant, for those of `lines` that have one (each checked to parse: the
    whole file compiled once a line, so `lines.choose` checks only the lines it takes)."""
    tried = candidates_per_line(path, text, lines)
    found = {line: first_that_parses(path, text, ms) for line, ms in tried.items()}
    return {line: m for line, m in found.items() if m is not None}


def candidates_per_line(path: str, text: bytes, lines: Collection[int],
                        ) -> dict[int, list[Mutant]]:
    """Line -> its candidate mutants, in the order they are tried, for those of `lines` that
    have any; not yet checked to parse (`first_that_parses`): a file of 50,000 changed lines
    (a generated table) compiled once a line took the gate past half an hour."""
    python = path.endswith(".py")
    module = python_mutants if python else syntax_mutants
    found = [m for m in module.candidates(path, text) if m.line in lines]
    found.sort(key=lambda m: (m.line, KINDS.index(m.kind), m.start))
    out: dict[int, list[Mutant]] = {}
    for mutant in found:
        out.setdefault(mutant.line, []).append(mutant)
    return out


def first_that_parses(path: str, text: bytes, tried: Sequence[Mutant]) -> Mutant | None:
    """The first of a line's candidates whose mutated file still parses."""
    module = python_mutants if path.endswith(".py") else syntax_mutants
    return next((m for m in tried if module.parses(path, m.applied(text))), None)


def branch_deleted(path: str, text: bytes, line: int) -> Mutant | None:
    """The `if` at `line` made never to hold (`if C` → `if False`): the branch deleted. The
    mutant of a special case (`gate.pinned.special_cases`): the tests it makes fail pass only
    through that branch."""
    never = "False" if path.endswith(".py") else "false"
    for m in candidates_per_line(path, text, {line}).get(line, []):
        if m.kind == "branch":
            deleted = dataclasses.replace(m, replacement=never.encode(), after=f"if {never}")
            return first_that_parses(path, text, [deleted])
    return None
