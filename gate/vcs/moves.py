"""Lines the change moved: an added line whose text, leading and trailing whitespace ignored, is a
line the change removed, in the same file or another. A block re-indented into a new `if`, a
function moved down a file, a test file split into a package: those lines are not new.

Each removed line accounts for one added line (a line copied three times is moved once). With
`context`, the next non-blank lines must have moved along with it: a marker line such as
`@pytest.mark.skip` is only moved when the test under it moved too, not when the same marker was
taken off one test and put on another.
"""
from __future__ import annotations

import collections
import dataclasses
from collections.abc import Iterable, Mapping

from gate.vcs.diff import ChangedFile

Key = tuple[str, ...]
# Lines that apply to the line under them: a Python decorator, a Rust or C# attribute, a Java
# annotation. At the end of a run of added lines (what follows them is unchanged), they are put
# on what was already there, not moved with it.
_PREFIXES = ("@", "#[")


def _runs(lines: Mapping[int, str]) -> list[list[tuple[int, str]]]:
    """Consecutive numbered lines, stripped, blank lines dropped but not breaking a run."""
    runs: list[list[tuple[int, str]]] = []
    last = -2
    for number in sorted(lines):
        if number != last + 1:
            runs.append([])
        last = number
        text = lines[number].strip()
        if text:
            runs[-1].append((number, text))
    return runs


def _keys(run: list[tuple[int, str]], context: int) -> Iterable[tuple[int, Key]]:
    """Each line with the `context` lines after it in its run (fewer at the run's end)."""
    for i, (number, _) in enumerate(run):
        window = tuple(text for _, text in run[i:i + context + 1])
        yield number, window


@dataclasses.dataclass(frozen=True)
class Moves:
    head: dict[str, frozenset[int]]  # by path: the head lines that were moved here
    base: dict[str, frozenset[int]]  # by path: the base lines that moved away


def moved(files: Iterable[ChangedFile], context: int = 0) -> Moves:
    """The new lines of each file that the change moved, and the removed lines they came from."""
    files = list(files)
    removed: dict[Key, collections.deque[tuple[str, int]]] = collections.defaultdict(
        collections.deque)
    for f in files:
        for run in _runs(f.removed):
            for number, window in _keys(run, context):
                removed[window].append((f.path, number))
    head: dict[str, set[int]] = collections.defaultdict(set)
    base: dict[str, set[int]] = collections.defaultdict(set)
    for f in files if removed else ():  # a change that removes nothing moved nothing
        for run in _runs(f.new_lines):
            for number, window in _keys(run, context):
                if len(window) <= context and window[0].startswith(_PREFIXES):
                    continue  # a decorator whose function did not move with it
                if removed.get(window):
                    path, line = removed[window].popleft()
                    base[path].add(line)
                    head[f.path].add(number)
    return Moves({p: frozenset(n) for p, n in head.items()},
                 {p: frozenset(n) for p, n in base.items()})
