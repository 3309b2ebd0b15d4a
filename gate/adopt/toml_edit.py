"""TOML written by the gate: a table appended to a file whose bytes are otherwise kept."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _char(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or ord(c) == 0x7F:  # control characters, which TOML wants escaped
        return f"\\u{ord(c):04x}"
    return c  # anything else as it is, in UTF-8: an emoji is one character, not two escapes


def string(s: str) -> str:
    """A TOML basic string."""
    return '"' + "".join(_char(c) for c in s) + '"'


def value(v: object) -> str:
    """A TOML value for a string, boolean, number or list of strings."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "[" + ", ".join(string(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {v!r}")


def table(name: str, values: Mapping[str, Any]) -> str:
    """`[name]` with its keys, then `[[name.key]]` for each list of tables; with name "" the
    keys are top-level (a `.gate.toml`)."""
    plain = {k: v for k, v in values.items() if not _is_tables(v)}
    lines = [f"[{name}]"] if name else []
    lines += [f"{k} = {value(v)}" for k, v in plain.items()]
    for key, rows in values.items():
        if _is_tables(rows):
            for row in rows:
                lines += ["", f"[[{name + '.' if name else ''}{key}]]"]
                lines += [f"{k} = {value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


def _is_tables(v: object) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def append(text: str, block: str) -> str:
    """`text` byte for byte, a blank line, then `block` (in the file's own line endings)."""
    if "\r\n" in text:
        block = block.replace("\n", "\r\n")
    newline = "\r\n" if "\r\n" in text else "\n"
    if not text.strip():
        return text + block
    if text.endswith(newline * 2):
        return text + block
    return text + (newline if text.endswith(newline) else newline * 2) + block
