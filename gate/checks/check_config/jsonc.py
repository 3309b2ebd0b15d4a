"""JSON with comments and trailing commas (tsconfig.json, .vscode settings): read as plain JSON.

Comments (`//` to the line end, `/* ... */`) and commas before a closing `]` or `}` are removed
outside strings, with every newline kept so that line numbers still match; then `json.loads`.
"""
from __future__ import annotations

import json
import re

_STRING = r'"(?:\\.|[^"\\\n])*"'
_COMMENT = re.compile(rf"{_STRING}|//[^\n]*|/\*.*?(?:\*/|\Z)", re.DOTALL)
_TRAILING_COMMA = re.compile(rf"{_STRING}|,(?=\s*[\]}}])")


def _blank(m: re.Match[str]) -> str:
    token = m.group()
    return token if token.startswith('"') else re.sub(r"[^\n]", " ", token)


def strip(text: str) -> str:
    """`text` with comments and trailing commas blanked (strings untouched, lines kept)."""
    return _TRAILING_COMMA.sub(_blank, _COMMENT.sub(_blank, text))


def loads(text: str) -> object:
    """The value of a JSON-with-comments text; ValueError (json.JSONDecodeError) if malformed."""
    return json.loads(strip(text))
