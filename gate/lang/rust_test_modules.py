"""Rust's in-file unit tests: the `#[cfg(test)] mod NAME { ... }` items of a source file,
found by tree-sitter, and the base's put back over the head's code.

Only items at the top of the file count (where `cargo new` and the book put them). A module
is a test module when one of the attributes right above it is a `cfg` naming `test`
(`#[cfg(test)]`, `#[cfg(all(test, feature = "x"))]`)."""
from __future__ import annotations

import re

import tree_sitter

from gate.lang import grammar

_CFG_TEST = re.compile(rb"^#\s*\[\s*cfg\s*\(.*\btest\b.*\)\s*\]$", re.DOTALL)


def _parse(text: bytes) -> tree_sitter.Node:
    return grammar.parser(grammar.GRAMMARS["rust"]).parse(text).root_node


def test_modules(text: bytes) -> dict[str, tuple[int, int]]:
    """Test module name -> its byte span, the attributes above it included."""
    found: dict[str, tuple[int, int]] = {}
    attributes: list[tree_sitter.Node] = []
    for node in _parse(text).children:
        if node.type == "attribute_item":
            attributes.append(node)
            continue
        name = node.child_by_field_name("name")
        if (node.type == "mod_item" and name is not None
                and node.child_by_field_name("body") is not None
                and any(_CFG_TEST.match(text[a.start_byte:a.end_byte]) for a in attributes)):
            start = attributes[0].start_byte
            found[text[name.start_byte:name.end_byte].decode("utf-8", "replace")] = (
                start, node.end_byte)
        if node.type not in ("line_comment", "block_comment"):
            attributes = []
    return found


def put_back(base: bytes, head: bytes) -> bytes:
    """The head's file with its test modules replaced by the base's: a module of the same
    name takes the base's text, one the head added goes, one the head removed comes back at
    the end."""
    base_mods = test_modules(base)
    head_mods = test_modules(head)
    out = head
    for name, (start, end) in sorted(head_mods.items(), key=lambda kv: -kv[1][0]):
        if name in base_mods:
            b_start, b_end = base_mods[name]
            out = out[:start] + base[b_start:b_end] + out[end:]
        else:  # the head's own test module goes, with the blank lines around it
            after = out[end:].lstrip(b"\n")
            out = out[:start].rstrip(b"\n") + (b"\n\n" if after else b"\n") + after
    missing = [name for name in base_mods if name not in head_mods]
    for name in missing:
        b_start, b_end = base_mods[name]
        out = out.rstrip(b"\n") + b"\n\n" + base[b_start:b_end] + b"\n"
    return out
