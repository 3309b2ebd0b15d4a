"""Source text split into code and comments, line by line, so that a marker inside a string
literal or a comment is not taken for code.

Python is read with `tokenize`; JavaScript, TypeScript, Go, Rust, Java and Ruby with their
tree-sitter grammars (`grammar`, `tree`); the other C-like languages (C#, Kotlin, Swift, C, C++) and
shell with a small lexer that knows their strings and comments (`lex`). Blanked characters become
spaces, so lines are kept. A file that does not parse is kept as raw text, `parsed` False.
"""
from __future__ import annotations

import dataclasses
import io
import re
import tokenize

from gate.lang.languages import Lexer, language_of
from gate.lang.lines import Line, Lines, Source, raw

__all__ = ["Line", "Source", "lex", "split"]


def lexer_of(path: str) -> Lexer | None:
    language = language_of(path)
    return language.lexer if language is not None else None


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


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
        return raw("python", text)
    return Source("python", Lines(["".join(chars) for chars in rows], comments), parsed=True)


_RUST_CHAR = re.compile(r"'(?:\\.[^']*|[^'\\])'")


def _lex(language: Lexer, text: str) -> Source:
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
    count = text.count("\n") + (0 if text.endswith("\n") else 1)
    rows = "".join(code).split("\n")[:count]
    comments = {n: " ".join(parts) for n, parts in comment_chars.items()}
    return Source(language, Lines(rows, comments), parsed=True)


def lex(path: str, text: str) -> Source | None:
    """The file's lines as the hand lexer reads them, without a grammar."""
    lexer = lexer_of(path)
    if lexer is None:
        return None
    if lexer == "python":
        return _python(text)
    return _lex(lexer, text)


def _tree_split(path: str, text: str) -> Source | None:
    from gate.lang import tree  # imported on first use: `gate scan` of Python starts faster

    return tree.split(path, text)


def split(path: str, text: str) -> Source | None:
    """The file's lines as code and comments; None for a language the gate does not read.

    A file its grammar cannot parse (a syntax error, or syntax newer than the grammar) is read
    by the lexer instead, and marked `parsed` False so that findings can say so."""
    parsed = _tree_split(path, text)
    if parsed is None or parsed.parsed:
        return parsed or lex(path, text)
    lexed = lex(path, text)
    return dataclasses.replace(lexed, parsed=False) if lexed is not None else parsed
