"""Configuration compared as parsed data: flattened keys, what changed, and where it is at head.

A reformatted file with the same values compares equal; each changed key is one `KeyChange`, shown
as `old -> new`. Lines are found by searching the head text for the section and the key.
"""
from __future__ import annotations

import configparser
import dataclasses
import json
import re
from collections.abc import Mapping, Sequence


class _Absent:
    def __repr__(self) -> str:
        return "(unset)"


ABSENT = _Absent()  # a key that one side does not have


# What a comparison raises, before it becomes a Finding: the head line and the message, and,
# where the comparison names it, the rule.
Weakening = tuple[int, str]
RuledWeakening = tuple[int, str, str]


@dataclasses.dataclass(frozen=True)
class KeyChange:
    key: str  # dotted path inside the compared table
    old: object  # ABSENT when added
    new: object  # ABSENT when removed


def flatten(table: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    """Nested tables as dotted keys; lists and scalars are leaves."""
    out: dict[str, object] = {}
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            out.update(flatten(value, name))
        else:
            out[name] = value
    return out


def _same(old: object, new: object) -> bool:
    return type(old) is type(new) and old == new  # True is not 1 here


def changes(old: Mapping[str, object], new: Mapping[str, object]) -> list[KeyChange]:
    """Each dotted key whose value differs, in key order."""
    before, after = flatten(old), flatten(new)
    return [
        KeyChange(key, before.get(key, ABSENT), after.get(key, ABSENT))
        for key in sorted(set(before) | set(after))
        if not _same(before.get(key, ABSENT), after.get(key, ABSENT))
    ]


def show(value: object, limit: int = 80) -> str:
    """A value for a message: JSON-like, bounded."""
    if value is ABSENT:
        return "(unset)"
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show_change(old: object, new: object, limit: int = 80) -> str:
    """`old -> new` for a message, readable when the values are long: each whole when both fit,
    else only where they differ, the common start and end elided to a little context (a long
    tox `deps` changed in its middle), never both cut at the same place."""
    if show(old, limit) == show(old, 10**9) and show(new, limit) == show(new, 10**9):
        return f"{show(old)} -> {show(new)}"
    if old is ABSENT or new is ABSENT:
        return f"{show(old, limit)} -> {show(new, limit)}"
    a, b = (json.dumps(v, default=str, ensure_ascii=False) for v in (old, new))
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    context = 20
    left = max(0, start - context)

    def part(text: str) -> str:
        middle = text[start:len(text) - end]
        if len(middle) > limit:
            middle = middle[:limit - 1] + "…"
        tail = text[len(text) - end:][:context]
        return ("…" if left else "") + text[left:start] + middle + tail + (
            "…" if end > context else "")
    return f"{part(a)} -> {part(b)}"


def dig(data: Mapping[str, object], dotted: str) -> dict[str, object]:
    """The table at a dotted path (`tool.ruff`), {} when absent or not a table."""
    node: object = data
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def ini_sections(text: str) -> dict[str, dict[str, object]]:
    """Every section of an ini file, whitespace in values normalised; configparser.Error if bad."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    return {
        section: {key: " ".join(value.split()) for key, value in parser.items(section)}
        for section in parser.sections()
    }


def line_of(text: str, steps: Sequence[re.Pattern[str]]) -> int | None:
    """The head line of the last of `steps` found, each searched after the line of the previous;
    None when the first is not found."""
    lines = text.splitlines()
    start, found = 0, None
    for step in steps:
        hit = next((i for i in range(start, len(lines)) if step.search(lines[i])), None)
        if hit is None:
            break
        start, found = hit + 1, hit + 1
    return found


def _section_key(lines: list[str], header: re.Pattern[str] | None,
                 key: re.Pattern[str]) -> int | None:
    """The line of `key` inside the section that `header` opens (None: before any header)."""
    top = -1 if header is None else next(
        (i for i, text in enumerate(lines) if header.search(text)), None)
    if top is None:
        return None
    for i in range(top + 1, len(lines)):
        if lines[i].lstrip().startswith("["):
            return None
        if key.search(lines[i]):
            return i + 1
    return None


def _toml_header(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\[\[?\s*{re.escape(name)}\s*\]\]?\s*(#.*)?$")


def toml_line(text: str, table: str, key: str) -> int:
    """The line of `key` of `[table]` ("" for the top level) in a TOML text, else of the closest
    table header, else 1."""
    lines = text.splitlines()
    parts = f"{table}.{key}".split(".") if table else key.split(".")
    for cut in range(len(parts) - 1, -1, -1):
        rest = ".".join(parts[cut:])
        header = _toml_header(".".join(parts[:cut])) if cut else None
        found = _section_key(lines, header,
                             re.compile(rf"^\s*[\"']?{re.escape(rest)}[\"']?\s*="))
        if found is not None:
            return found
    for cut in range(len(parts), 0, -1):
        found = line_of(text, [_toml_header(".".join(parts[:cut]))])
        if found is not None:
            return found
    return 1


def ini_line(text: str, section: str, key: str) -> int:
    """The line of `key` in `[section]` of an ini text, else of the section header, else 1."""
    header = re.compile(rf"^\s*\[\s*{re.escape(section)}\s*\]", re.IGNORECASE)
    found = _section_key(text.splitlines(), header,
                         re.compile(rf"^\s*{re.escape(key)}\s*[=:]", re.IGNORECASE))
    return found or line_of(text, [header]) or 1


def json_line(text: str, keys: Sequence[str]) -> int:
    """The line of the deepest of the nested `keys` found in a JSON text, else 1."""
    steps = [re.compile(rf"\"{re.escape(key)}\"\s*:") for key in keys]
    return line_of(text, steps) or 1
