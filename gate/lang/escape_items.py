"""The escapes of one side of a file, each with what it belongs to (`gate.lang.identity`): the
statement it sits on or precedes, or the whole file for a file-wide directive."""
from __future__ import annotations

import dataclasses
import re

from gate.lang import escape_patterns, identity
from gate.lang.escape_patterns import Directive, EscapePattern
from gate.lang.identity import FILE, Anchor, Anchors
from gate.lang.lines import Source
from gate.models import Finding

# Directives for the whole file, wherever they are written.
_FILE_WIDE = frozenset({"ruff: noqa", "mypy: ignore-errors", "mypy: disable-error-code",
                        "@ts-nocheck", "#![allow]"})


@dataclasses.dataclass(frozen=True)
class Escape:
    line: int
    row: EscapePattern
    anchor: Anchor
    directive: Directive  # the codes it names
    shown: str  # the escape as matched
    around: tuple[Anchor, ...] = ()  # statements whose header shares its line

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        return (self.anchor, *self.around)


def _file_wide(row: EscapePattern, matched: str) -> bool:
    if row.rule == "eslint-disable":  # `/* eslint-disable */`, not `-line` or `-next-line`
        return "eslint-disable-" not in matched
    return row.rule in _FILE_WIDE or (row.rule == "istanbul ignore" and "file" in matched)


def found(path: str, text: str, split: Source, anchors: Anchors,
          rows: tuple[EscapePattern, ...]) -> list[Escape]:
    """Every escape of `rows` in the file, in line order."""
    words = escape_patterns.words_for(path)
    out: list[Escape] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = split.lines.get(number)
        if line is None or not words.search(raw):
            continue
        for row in rows:
            haystack = line.code if row.where == "code" else line.comment
            match = row.pattern.search(haystack)
            if match is None:
                continue
            said = escape_patterns.directive(row.rule, raw) or Directive("", None)
            wide = _file_wide(row, match.group())
            out.append(Escape(number, row, FILE if wide else anchors.at(number), said,
                              match.group(), () if wide else anchors.around(number)))
    return out


def wider(old: Escape, new: Escape) -> bool:
    """Whether `new` silences more than `old`: all codes where it named some, or more codes."""
    before, after = old.directive.codes, new.directive.codes
    if before is None:
        return False
    return after is None or len(after) > len(before)


def take(pool: list[Escape], new: Escape) -> Escape | None:
    """The base's escape that `new` is (one with the same codes first, then one no narrower),
    taken from `pool`: one old escape accounts for one new."""
    if not pool:
        return None
    order = sorted(range(len(pool)), key=lambda i: (pool[i].directive.codes
                                                    != new.directive.codes, wider(pool[i], new)))
    return pool.pop(order[0])


def code_changed(path: str, old: Escape, new: Escape) -> Finding:
    """A notice: the same escape on the same statement names other codes (a checker renamed
    one), no more of them."""
    before = ", ".join(sorted(old.directive.codes or ()))
    after = ", ".join(sorted(new.directive.codes or ()))
    return Finding(path, new.line, new.row.rule, severity="notice",
                   message=f"`{new.row.rule}` on the same statement: code changed, [{before}] -> "
                   f"[{after}]; not a new escape, no more codes than before")


def _words(anchor: Anchor) -> str:
    return " ".join(re.findall(r"\w+", anchor.statement))


def edited(gone: list[Escape], new: Escape) -> Escape | None:
    """The removed base escape that `new` is on its statement edited in place (a name
    renamed in it): the same escape, no wider, in the same definition, on a statement at
    least half of whose words are the same; taken from `gone`."""
    for i, old in enumerate(gone):
        if (old.row.rule == new.row.rule and old.anchor.scope == new.anchor.scope
                and old.anchor != FILE and not wider(old, new)
                and identity.words_alike(_words(old.anchor), _words(new.anchor)) >= 0.5):
            return gone.pop(i)
    return None
