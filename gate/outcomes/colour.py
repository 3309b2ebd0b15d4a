"""Colour codes in what a runner prints and reports: the project's CI may ask for colour
(`FORCE_COLOR`, `PY_COLORS`), and the gate reads what the runner gives without them. pytest
writes an escape into a JUnit report's text as `#x1B` (XML cannot hold it)."""
from __future__ import annotations

import re

# SGR and other CSI sequences, OSC sequences (hyperlinks); raw or as pytest escapes them in XML
ANSI = re.compile(r"(?:\x1b|#x1B)\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def plain(text: str) -> str:
    """`text` without its colour codes."""
    return ANSI.sub("", text)
