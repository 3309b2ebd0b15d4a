"""New or changed test lines that read the code under test as text or bytecode instead of
running it: `inspect.getsource`, a function's `__code__` (`co_code`, `dis`), a hash of a
module's file. Such a test fails for every mutant (the text changed) whatever the code does,
so it pins nothing: it is named, as a `pinned` finding at its line, and the line recorder
(`ran.py`) keeps its failures from killing any mutant.

Python test files only; the added lines of the change, read as Python tokens (a string or a
comment that names `getsource` is not a read)."""
from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Mapping

from gate.engine.context import DiffContext

# (what a line does, the pattern over its code with strings and comments blanked)
_READS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("reads the source of the code under test",
     re.compile(r"\b(getsource|getsourcelines|findsource)\s*\(")),
    ("reads the bytecode of the code under test",
     re.compile(r"\bco_code\b|\bdis\.(dis|get_instructions|Bytecode|code_info)\b|"
                r"\bmarshal\.dumps\b|\.__code__\s*[=!]=|[=!]=\s*[\w.]+\.__code__\b|"
                r"\b(hash\w*|sha\d+|md5)\s*\(.*\.__code__\b")),
    ("reads or hashes a module's file",  # `x.__file__`: a module's, not the test's own
     re.compile(r"(\w\.__file__\b|\.origin\b).*(\bread_bytes\b|\bread_text\b|\.read\(|"
                r"\bhashlib\b|\bfile_digest\b)|(\bopen\s*\(|\bhashlib\.\w+\s*\(|"
                r"\bfile_digest\s*\().*(\w\.__file__\b|\.origin\b)")),
)


def _code_only(line: str) -> str:
    """`line` with its strings and comments blanked (the line as it stands if it does not
    tokenize alone: a line of a longer statement)."""
    text = line.strip()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    for t in reversed(tokens):
        if t.type in (tokenize.STRING, tokenize.COMMENT) and t.start[0] == t.end[0] == 1:
            text = text[:t.start[1]] + '""' + text[t.end[1]:]
    return text


def found(ctx: DiffContext, tests: list[str]) -> list[tuple[str, int, str]]:
    """(path, line, what it does) of each added line of the Python `tests` that reads the
    code's source, bytecode or file hash."""
    changed = {f.path: f for f in ctx.files}
    return [found for path in tests if path in changed
            for found in found_in_lines(path, changed[path].new_lines)]


def found_in_lines(path: str, lines: Mapping[int, str]) -> list[tuple[str, int, str]]:
    """(path, line, what it does) of each of `lines` (Python) that reads the code as text."""
    if not path.endswith(".py"):
        return []
    out = []
    for line, text in sorted(lines.items()):
        code = _code_only(text)
        what = next((w for w, pattern in _READS if pattern.search(code)), None)
        if what is not None:
            out.append((path, line, what))
    return out
