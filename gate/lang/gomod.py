"""What a go.mod says, parsed: its directives (`directives`, read by check-config's `go-mod`
rule) and the directories of the repository its `replace` directives point at (`replaced`:
a module copy there is the project's own code, whatever its folder is called)."""
from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

GO_MOD = "go.mod"
_KINDS = ("replace", "exclude", "go", "toolchain", "godebug")
_DIRECTIVE = re.compile(r"^(\w+)\s*(\(?)\s*(.*?)$")


def directives(text: str) -> dict[tuple[str, str], int]:
    """The directives of `_KINDS` (kind, entry normalised) with their lines; blocks as well as
    single lines."""
    out: dict[tuple[str, str], int] = {}
    block: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("//", 1)[0].strip()
        if block is not None:
            if line == ")":
                block = None
            elif line and block in _KINDS:
                out.setdefault((block, " ".join(line.split())), number)
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            continue
        kind, opens, rest = m.groups()
        if opens and not rest:
            block = kind
        elif rest and kind in _KINDS:
            out.setdefault((kind, " ".join(rest.split())), number)
    return out


_REPLACE_TO = re.compile(r"=>\s*(\.{1,2}/\S*|\.{1,2})\s*$")


def replaced(go_mods: Mapping[str, str | None]) -> frozenset[str]:
    """The directories of the repository that the `replace` directives of `go_mods` (path ->
    text) point at."""
    out = set()
    for path, text in go_mods.items():
        for kind, entry in directives(text or ""):
            target = _REPLACE_TO.search(entry) if kind == "replace" else None
            if target is None:
                continue
            where = posixpath.normpath(posixpath.join(posixpath.dirname(path), target.group(1)))
            if where != "." and not where.startswith("../") and where != "..":
                out.add(where)
    return frozenset(out)
