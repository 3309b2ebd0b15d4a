"""A check's `detail`: at most 1,500 characters, the most useful part first.

An agent reads it as the answer of its `submit` tool, so it leads with what to act on (each
failing test's name, where it is defined and its assertion message), then fills what room is
left with the last lines of the output.
"""
from __future__ import annotations

from collections.abc import Sequence

from gate.outcomes.record import CaseResult

LIMIT = 1500
_CUT = "[...]"


def _failure(case: CaseResult) -> str:
    where = f" ({case.file}:{case.line})" if case.file and case.line else ""
    text = f"FAILED {case.name}{where}"
    message = case.message.strip()
    if message:
        text += "\n  " + "\n  ".join(message.splitlines()[:4])
    return text


def bound(text: str, limit: int = LIMIT) -> str:
    """`text` cut to `limit` characters, keeping its end (where a log's verdict is)."""
    if len(text) <= limit:
        return text
    kept = text[len(text) - (limit - len(_CUT) - 1):]
    newline = kept.find("\n")
    if 0 <= newline < len(kept) // 2:
        kept = kept[newline + 1:]
    return f"{_CUT}\n{kept}"


def excerpt(failures: Sequence[CaseResult], output: str, limit: int = LIMIT) -> str:
    """The failing tests first, then as much of the output's tail as fits."""
    head = ""
    for case in failures:
        block = _failure(case)
        if len(head) + len(block) + 1 > limit // 2:
            more = len(failures) - head.count("FAILED ")
            head += f"... and {more} more failing test(s)\n"
            break
        head += block + "\n"
    room = limit - len(head) - len("--- output ---\n")
    tail = output.rstrip()
    if not tail or room < 80:
        return bound(head.rstrip(), limit)
    if not head:
        return bound(tail, limit)
    return head + "--- output ---\n" + bound(tail, room)
