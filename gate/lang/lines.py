"""A source file read as lines of code and comments: what every language reader produces."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping


@dataclasses.dataclass(frozen=True)
class Line:
    code: str  # the line with string literals and comments blanked
    comment: str  # the text of the comments on this line, "" if none


class Lines(Mapping[int, Line]):
    """Line n (1-based) of a file, made when asked for from the rows of code and the comments:
    a file of a million lines holds two lists, not a million objects for the collector."""

    __slots__ = ("_code", "_comments")

    def __init__(self, code: list[str], comments: Mapping[int, str] | None = None) -> None:
        self._code = code
        self._comments: Mapping[int, str] = comments or {}

    def __getitem__(self, number: int) -> Line:
        if not 0 < number <= len(self._code):
            raise KeyError(number)
        return Line(self._code[number - 1], self._comments.get(number, ""))

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self._code) + 1))

    def __len__(self) -> int:
        return len(self._code)


@dataclasses.dataclass(frozen=True)
class Source:
    language: str
    lines: Lines  # 1-based
    parsed: bool  # False: the file did not parse (its grammar found a syntax error)
    lexed: bool = True  # False: strings and comments could not be told apart: lines are raw


def raw(language: str, text: str) -> Source:
    """The fallback for a file that does not parse: every line as it is, no comments known."""
    return Source(language, Lines(text.split("\n")), parsed=False, lexed=False)
