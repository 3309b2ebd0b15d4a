"""The one mutant of each changed line: the first mutation, by kind (operators.KINDS) and
then by column, after which the file still parses."""
from __future__ import annotations

from collections.abc import Collection

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
    """Line -> its mutant, for those of `lines` that have one."""
    python = path.endswith(".py")
    module = python_mutants if python else syntax_mutants
    found = [m for m in module.candidates(path, text) if m.line in lines]
    found.sort(key=lambda m: (m.line, KINDS.index(m.kind), m.start))
    out: dict[int, Mutant] = {}
    for mutant in found:
        if mutant.line not in out and module.parses(path, mutant.applied(text)):
            out[mutant.line] = mutant
    return out
