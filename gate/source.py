"""Source text split into code and comments, line by line, so that a marker inside a string
literal or a comment is not taken for code.

Python is read with `tokenize`; C-like languages (JavaScript, TypeScript, Go, Rust, Java,
C#, Kotlin, Swift, C, C++) and hash-comment languages (Ruby, shell) with a small lexer that
knows their strings and comments. Blanked characters become spaces, so columns are kept.
"""
from __future__ import annotations

import dataclasses
import io
import os
import re
import tokenize
from typing import Literal

Language = Literal["python", "c-like", "rust", "hash"]

_EXTENSIONS: dict[str, Language] = {
    ".py": "python", ".pyi": "python",
    ".js": "c-like", ".jsx": "c-like", ".mjs": "c-like", ".cjs": "c-like",
    ".ts": "c-like", ".tsx": "c-like", ".mts": "c-like", ".cts": "c-like",
    ".go": "c-like", ".java": "c-like", ".kt": "c-like", ".kts": "c-like",
    ".cs": "c-like", ".swift": "c-like", ".c": "c-like", ".h": "c-like",
    ".cc": "c-like", ".cpp": "c-like", ".hpp": "c-like", ".scala": "c-like",
    ".rs": "rust",
    ".rb": "hash", ".sh": "hash", ".bash": "hash",
}


@dataclasses.dataclass(frozen=True)
class Line:
    code: str  # the line with string literals and comments blanked
    comment: str  # the text of the comments on this line, "" if none


@dataclasses.dataclass(frozen=True)
class Source:
    language: Language
    lines: dict[int, Line]  # 1-based
    parsed: bool  # False: the file did not tokenize and lines are raw text


def language_of(path: str) -> Language | None:
    return _EXTENSIONS.get(os.path.splitext(path)[1].lower())


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _raw(language: Language, text: str) -> Source:
    lines = {i: Line(code=t, comment="") for i, t in enumerate(text.split("\n"), 1)}
    return Source(language, lines, parsed=False)


def _python(text: str) -> Source:
    rows = [list(line) for line in text.split("\n")]
    comments: dict[int, str] = {}
    blank_types = {tokenize.STRING, tokenize.COMMENT}
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type not in blank_types and tok.type != fstring_middle:
                continue
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.string
            (srow, scol), (erow, ecol) = tok.start, tok.end
            for row in range(srow, erow + 1):
                if row - 1 >= len(rows):
                    break
                chars = rows[row - 1]
                start = scol if row == srow else 0
                end = ecol if row == erow else len(chars)
                for col in range(start, min(end, len(chars))):
                    chars[col] = " "
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return _raw("python", text)
    lines = {
        i: Line(code="".join(chars), comment=comments.get(i, ""))
        for i, chars in enumerate(rows, 1)
    }
    return Source("python", lines, parsed=True)


_RUST_CHAR = re.compile(r"'(?:\\.[^']*|[^'\\])'")


def _lex(language: Language, text: str) -> Source:
    """A lexer for C-like and hash-comment languages: strings and comments blanked."""
    code: list[str] = []
    comment_chars: dict[int, list[str]] = {}
    line = 1
    i, n = 0, len(text)
    hash_comments = language == "hash"
    while i < n:
        c = text[i]
        if c == "\n":
            code.append(c)
            line += 1
            i += 1
            continue
        two = text[i:i + 2]
        if (not hash_comments and two == "//") or (hash_comments and c == "#"):
            end = text.find("\n", i)
            end = n if end == -1 else end
            comment_chars.setdefault(line, []).append(text[i:end])
            code.append(" " * (end - i))
            i = end
            continue
        if not hash_comments and two == "/*":
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            chunk = text[i:end]
            for offset, part in enumerate(chunk.split("\n")):
                comment_chars.setdefault(line + offset, []).append(part)
            code.append(_blank(chunk))
            line += chunk.count("\n")
            i = end
            continue
        if c == "'" and language == "rust":
            m = _RUST_CHAR.match(text, i)
            if m is None:  # a lifetime such as 'a
                code.append(c)
                i += 1
                continue
            code.append(_blank(m.group()))
            i = m.end()
            continue
        if c in "\"'`":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n" and c != "`" and language != "rust":
                    break  # an unterminated one-line string ends at the line end
                j += 1
            end = min(j + 1, n) if j < n and text[j] == c else j
            chunk = text[i:end]
            code.append(_blank(chunk))
            line += chunk.count("\n")
            i = end
            continue
        code.append(c)
        i += 1
    code_lines = "".join(code).split("\n")
    raw_lines = text.split("\n")
    lines = {
        idx: Line(code=code_lines[idx - 1], comment=" ".join(comment_chars.get(idx, [])))
        for idx in range(1, len(raw_lines) + 1)
        if idx - 1 < len(code_lines)
    }
    if text.endswith("\n"):
        lines.pop(len(raw_lines), None)
    return Source(language, lines, parsed=True)


def split(path: str, text: str) -> Source | None:
    """The file's lines as code and comments; None for a language the gate does not read."""
    language = language_of(path)
    if language is None:
        return None
    if language == "python":
        return _python(text)
    return _lex(language, text)
