"""YAML edits that keep the user's file: ruamel.yaml's round-trip mode, with the file's own
indentation, quoting, comments, anchors, key order and document markers."""
from __future__ import annotations

import difflib
import io
import itertools
import re
from collections.abc import Callable
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from gate.errors import GateError

_KEY_ONLY = re.compile(r"^( *)[^\s#-][^#]*:\s*([&!]\S+\s*)?(#.*)?$")


def _mapping_indent(text: str, default: int) -> int:
    """The indent of a mapping nested in a mapping (`key:` then `  child: …`)."""
    rows = _content(text)
    for row, after in itertools.pairwise(rows):
        m = _KEY_ONLY.match(row)
        step = len(after) - len(after.lstrip(" ")) - (len(m.group(1)) if m else 0)
        if m and step > 0 and not after.lstrip().startswith("-"):
            return step
    return default


def _content(text: str) -> list[str]:
    return [r for r in text.splitlines() if r.strip() and not r.lstrip().startswith("#")]


def _split_start(text: str) -> tuple[str, str]:
    """The lines up to an explicit document start `---` (ruamel drops comments above it),
    kept verbatim, and the rest."""
    lines = text.splitlines(keepends=True)
    for i, row in enumerate(lines):
        if row.strip() and not row.lstrip().startswith("#"):
            if row.startswith("---") and not row[3:].strip():
                return "".join(lines[:i + 1]), "".join(lines[i + 1:])
            break
    return "", text


_LEAD = re.compile(r"^[ -]*")


def _unindented(row: str) -> str:
    """A line without its indentation, before and after a sequence's dashes."""
    return _LEAD.sub(lambda m: m.group().replace(" ", ""), row.rstrip())


def _kept(text: str, dumped: str) -> str:
    """`dumped` with each line that only differs from one of `text` by its indentation put
    back as it was: ruamel writes one indentation for the whole file, and a file whose entries
    are indented two ways (one pasted from another project's README) would come back with
    every line changed. The merge is kept only where it reads as the same data as `dumped`."""
    old, new = text.splitlines(keepends=True), dumped.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, [_unindented(r) for r in old],
                                      [_unindented(r) for r in new], autojunk=False)
    merged: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        merged.extend(old[i1:i2] if tag == "equal" else new[j1:j2])
    candidate = "".join(merged)
    if candidate == dumped:
        return dumped
    safe = YAML(typ="safe")
    try:
        same = safe.load(candidate) == safe.load(dumped)
    except YAMLError:
        same = False
    return candidate if same else dumped


def _yaml() -> YAML:
    yaml = YAML()  # round-trip
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long line of the user's
    return yaml


def edit(text: str, path: str, change: Callable[[Any], Any]) -> str:
    """`text` with `change(data)` applied (it returns the new top-level node); every line the
    change did not touch is kept as it was."""
    prefix, text = _split_start(text)
    yaml = _yaml()
    try:
        data, sequence, offset = load_yaml_guess_indent(text, yaml=yaml)
    except YAMLError as e:
        raise GateError(f"{path} is not valid YAML ({e}): fix it, then run gate init again") from e
    if data is None:  # empty, or comments only: keep them above what is added
        prefix += text if not text or text.endswith("\n") else text + "\n"
    offset = offset if offset is not None else 0
    mapping = _mapping_indent(text, sequence - offset if sequence else 2)
    yaml.indent(mapping=mapping, sequence=sequence or mapping + offset, offset=offset)
    out = io.StringIO()
    yaml.dump(change(data), out)
    return prefix + _kept(text, out.getvalue())
