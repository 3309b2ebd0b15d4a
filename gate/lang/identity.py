"""Whether something at the head is the same thing as at the base: one definition for every
diff check (DESIGN.md, "The same thing as at the base").

- An escape or a marker on a line belongs to the statement or definition the line is part of,
  as a parser sees it (`gate.lang.statements`): its `Anchor` is the names of the definitions
  around it and the statement's tokens, whatever the layout. A formatter's join or split, a
  re-indent or a move leaves the anchor as it was; a comment on a line of its own belongs to the
  statement after it; a directive for a whole file to the file.
- Items of a sequence (a workflow's steps, its jobs, a file's rules) are paired by what they
  are, strongest key first, then by their place among paired neighbours (`pair`): a step
  removed before another does not shift the pairs, a step whose command changed in place is
  the same step, changed.
"""
from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from gate.lang import statements
from gate.lang.lines import Source
from gate.lang.statements import Statement

T = TypeVar("T")
_TRAILING_COMMA = re.compile(r",(?=[)\]}])")


@dataclasses.dataclass(frozen=True)
class Anchor:
    scope: tuple[str, ...]  # the definitions it lies in, outermost first
    statement: str  # the statement's tokens (a compound statement's header), or a marker


FILE = Anchor((), "<file>")  # a directive for the whole file


class Anchors:
    """The anchors of one side of a file: parsed once, asked per line."""

    def __init__(self, found: list[Statement], source: Source) -> None:
        self._statements = sorted(found, key=lambda s: (s.start, s.depth))
        self._starts = [s.start for s in self._statements]
        self._source = source

    def _code(self, line: int) -> str:
        found = self._source.lines.get(line)
        return " ".join(found.code.split()) if found is not None else ""

    def _covering(self, line: int) -> Statement | None:
        covering = [s for s in self._statements[:bisect.bisect_right(self._starts, line)]
                    if s.end >= line]
        return max(covering, key=lambda s: (s.depth, s.start)) if covering else None

    def words(self, line: int) -> str:
        """The code from `line` to the end of its statement's header, without whitespace or a
        trailing comma: what a marker or an escape says there, whatever the layout."""
        inner = self._covering(line)
        last = max(line, inner.header_end) if inner is not None else line
        text = "".join("".join(self._code(n).split()) for n in range(line, last + 1))
        return _TRAILING_COMMA.sub("", text)

    def around(self, line: int) -> tuple[Anchor, ...]:
        """The statements around the one `line` belongs to whose header holds the line too:
        `def f() -> int: ...  # type: ignore` belongs to `...` and to `def f` alike."""
        code = self._code(line)
        inner = self._covering(line) if code else None
        if inner is None:
            return ()
        covering = [s for s in self._statements[:bisect.bisect_right(self._starts, line)]
                    if s.start <= line <= s.header_end and s.depth < inner.depth]
        return tuple(Anchor(s.scope, s.key) for s in sorted(covering, key=lambda s: -s.depth))

    def at(self, line: int) -> Anchor:
        """The anchor of what is written on `line`."""
        code = self._code(line)
        if not code:  # a comment on a line of its own: the statement after it
            i = bisect.bisect_right(self._starts, line)
            if i == len(self._statements):
                return FILE
            after = self._statements[i]
            return Anchor(after.scope, after.key)
        inner = self._covering(line)
        if inner is None:
            return Anchor((), code)
        if line > inner.header_end and inner.end > inner.header_end:
            return Anchor(inner.scope, f"{inner.key} | {code}")  # `else:`, `finally:`
        return Anchor(inner.scope, inner.key)


def anchors(path: str, text: str, source: Source | None) -> Anchors | None:
    """The anchors of `path` as `text` reads; None where no parser reads it or it does not
    parse (the caller then compares lines as text)."""
    if source is None or not source.parsed:
        return None
    found = statements.parse(path, text)
    return None if found is None else Anchors(found, source)


Key = Callable[[T], Hashable | None]


def _bounds(i: int, by_old: dict[int, int], size: int) -> tuple[int, int]:
    """The new indexes of the nearest paired items before and after old item `i`."""
    before = max((k for k in by_old if k < i), default=None)
    after = min((k for k in by_old if k > i), default=None)
    return (by_old[before] if before is not None else -1,
            by_old[after] if after is not None else size)


def words_alike(a: str, b: str) -> float:
    """How alike two commands are: the words they share over the words either has."""
    x, y = set(a.split()), set(b.split())
    return len(x & y) / len(x | y) if x | y else 0.0


def pair(old: Sequence[T], new: Sequence[T], keys: Sequence[Key[T]], *,
         by_place: bool = True, alike: Callable[[T, T], float] | None = None,
         ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """(pairs of old and new indexes, old ones left, new ones left). Items are paired by each
    key in turn (None: the key says nothing of it), in order among equals. Then, with
    `by_place` (jobs have no order), between the same paired neighbours: one item left on
    each side is the same item, changed; of more, those `alike` says are at least half alike,
    the most alike first."""
    by_old: dict[int, int] = {}
    taken: set[int] = set()
    for key in keys:
        waiting: dict[Hashable, list[int]] = {}
        for j, item in enumerate(new):
            k = key(item)
            if j not in taken and k is not None:
                waiting.setdefault(k, []).append(j)
        for i, item in enumerate(old):
            k = key(item)
            if i in by_old or k is None or not waiting.get(k):
                continue
            j = waiting[k].pop(0)
            by_old[i] = j
            taken.add(j)
    gaps: dict[tuple[int, int], list[int]] = {}
    for i in range(len(old)) if by_place else ():
        if i not in by_old:
            gaps.setdefault(_bounds(i, by_old, len(new)), []).append(i)
    for (before, after), olds in gaps.items():
        news = [j for j in range(before + 1, after) if j not in taken]
        if len(olds) == 1 and len(news) == 1:
            by_old[olds[0]] = news[0]
            taken.add(news[0])
            continue
        scored = sorted(((alike(old[i], new[j]), i, j) for i in olds for j in news
                         if alike is not None), reverse=True)
        for score, i, j in scored:
            if score >= 0.5 and i not in by_old and j not in taken:
                by_old[i] = j
                taken.add(j)
    pairs = sorted(by_old.items())
    return (pairs, [i for i in range(len(old)) if i not in by_old],
            [j for j in range(len(new)) if j not in taken])
