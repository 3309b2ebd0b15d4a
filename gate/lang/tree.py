"""A file parsed with its tree-sitter grammar, as lines of code (literals and comments blanked)
and comments. A file whose tree has errors is not parsed: the caller falls back to a lexer."""
from __future__ import annotations

import re

import tree_sitter

from gate.lang.grammar import Grammar, grammar_of, parser, query
from gate.lang.lines import Lines, Source, raw

_NOT_NEWLINE = re.compile(r"[^\n]")


def split(path: str, text: str) -> Source | None:
    """The file's lines as code and comments; None when no grammar reads `path`."""
    grammar = grammar_of(path)
    if grammar is None:
        return None
    data = text.encode("utf-8", "replace")
    tree = parser(grammar).parse(data)
    if tree.root_node.has_error:
        return raw(grammar.name, text)  # `parsed` False: gate.lang.source lexes it instead
    return _lines(grammar, data, tree)


def _lines(grammar: Grammar, data: bytes, tree: tree_sitter.Tree) -> Source:
    captures = tree_sitter.QueryCursor(query(grammar)).captures(tree.root_node)
    comments: dict[int, list[str]] = {}
    for node in captures.get("comment", []):
        chunk = data[node.start_byte:node.end_byte]
        for offset, part in enumerate(chunk.split(b"\n")):
            comments.setdefault(node.start_point[0] + 1 + offset, []).append(
                part.decode("utf-8", "replace"))
    spans = [(n.start_byte, n.end_byte)
             for n in [*captures.get("literal", []), *captures.get("comment", [])]]
    rows = _blanked(data, spans).split("\n")
    if data.endswith(b"\n"):
        rows.pop()
    joined = {n: " ".join(parts) for n, parts in comments.items()}
    return Source(grammar.name, Lines(rows, joined), parsed=True)


def _blanked(data: bytes, spans: list[tuple[int, int]]) -> str:
    """The text of `data` with every byte span blanked one space per character, not per byte:
    the code keeps the text's character offsets, so a title found in the code at an offset is
    at that offset of the text, after an em dash too."""
    out: list[str] = []
    at = 0
    for start, end in sorted(spans):
        if end <= at:
            continue  # inside a span already blanked
        start = max(start, at)
        out.append(data[at:start].decode("utf-8", "replace"))
        out.append(_NOT_NEWLINE.sub(" ", data[start:end].decode("utf-8", "replace")))
        at = end
    out.append(data[at:].decode("utf-8", "replace"))
    return "".join(out)
