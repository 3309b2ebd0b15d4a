"""One model of literal values for every language: a literal read from Python, JavaScript,
Go or Rust source becomes a `Value`, so that what the code compares and what the tests pass
are matched by value, not by spelling (`[5, 9, 2, 1, 5, 3]` in code is the tuple
`(5, 9, 2, 1, 5, 3)` a parametrized test passes; `5` is `5.0`; `nil` is `None`).

A Value is a hashable tagged tuple: ("none",), ("bool", b), ("num", n), ("str", s),
("seq", items), ("set", frozenset), ("map", frozenset of (key, value))."""
from __future__ import annotations

import json
import math
from typing import Any

Value = tuple[Any, ...]

NONE: Value = ("none",)


def of(obj: object) -> Value | None:
    """The Value of a Python object made of literals (None: not such an object)."""
    if obj is None:
        return NONE
    if isinstance(obj, bool):
        return ("bool", obj)
    if isinstance(obj, (int, float)):
        return None if isinstance(obj, float) and math.isnan(obj) else ("num", obj)
    if isinstance(obj, str):
        return ("str", obj)
    if isinstance(obj, bytes):
        return ("str", obj.decode("utf-8", "replace"))
    if isinstance(obj, (list, tuple)):
        items = [of(x) for x in obj]
        return None if any(x is None for x in items) else ("seq", tuple(items))
    if isinstance(obj, (set, frozenset)):
        members = [of(x) for x in obj]
        return None if any(x is None for x in members) else ("set", frozenset(members))
    if isinstance(obj, dict):
        pairs = [(of(k), of(v)) for k, v in obj.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return ("map", frozenset(pairs))
    return None


def seq(items: list[Value | None]) -> Value | None:
    return None if any(x is None for x in items) else ("seq", tuple(items))


def mapping(pairs: list[tuple[Value | None, Value | None]]) -> Value | None:
    if any(k is None or v is None for k, v in pairs):
        return None
    return ("map", frozenset(pairs))


def from_json(text: str) -> Value | None:
    """A string that holds a JSON array or object (`JSON.stringify(x) === "[5,9]"`)."""
    if not text.strip().startswith(("[", "{")):
        return None
    try:
        return of(json.loads(text))
    except ValueError:
        return None


def leaves(value: Value) -> list[Value]:
    """The scalars a value is made of (a map's keys and values)."""
    tag = value[0]
    if tag == "seq":
        return [leaf for x in value[1] for leaf in leaves(x)]
    if tag == "set":
        return [leaf for x in value[1] for leaf in leaves(x)]
    if tag == "map":
        return [leaf for k, v in value[1] for leaf in (*leaves(k), *leaves(v))]
    return [value]


def is_edge(value: Value) -> bool:
    """0, 1, -1, None, True, False and empty values: what honest code guards on."""
    tag = value[0]
    if tag in ("none", "bool"):
        return True
    if tag == "num":
        return value[1] in (0, 1, -1)
    if tag == "str":
        return not value[1].strip()
    return not value[1]


def is_compound(value: Value) -> bool:
    """A list, tuple, set or map of two scalars or more, not all edge values; or a string of
    several words: a value a test passes that no table of constants holds by chance."""
    if value[0] == "str":
        return len(value[1].split()) >= 2
    if value[0] not in ("seq", "set", "map"):
        return False
    found = leaves(value)
    return len(found) >= 2 and not all(is_edge(x) for x in found)


def shown(value: Value, limit: int = 60) -> str:
    """A value as Python writes it, cut to `limit` characters."""
    text = repr(_python(value))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _python(value: Value) -> object:
    tag = value[0]
    if tag == "none":
        return None
    if tag in ("bool", "num", "str"):
        return value[1]
    if tag == "seq":
        return [_python(x) for x in value[1]]
    if tag == "set":
        return {repr(_python(x)) for x in value[1]}
    return {repr(_python(k)): _python(v) for k, v in value[1]}
