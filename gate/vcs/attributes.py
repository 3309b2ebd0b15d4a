"""The root .gitattributes, read as git reads it: which paths are `linguist-generated` or
`linguist-vendored` (GitHub's marks for generated and vendored code, not scanned for markers).

Patterns follow gitattributes(5): a pattern without a slash matches a file name at any depth; one
with a slash is anchored at the root; `**` spans directories. The last matching line wins.
"""
from __future__ import annotations

import dataclasses
import re

GENERATED = "linguist-generated"
VENDORED = "linguist-vendored"


@dataclasses.dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    text: str  # the pattern as written
    attrs: dict[str, bool]  # attribute -> set (True) or unset (False)


def glob_regex(pattern: str, anchored: bool | None = None) -> re.Pattern[str]:
    """A gitignore-style glob as a regular expression on a repository path: unless `anchored`
    says otherwise, a pattern with a slash is anchored at the root, one without matches a name
    at any depth."""
    if anchored is None:
        anchored = "/" in pattern.rstrip("/")
    body = pattern.lstrip("/")
    out = ""
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif body.startswith("/**", i) and i + 3 == len(body):
            out += "/.*"
            i += 3
        elif body[i] == "*":
            out += "[^/]*"
            i += 1
        elif body[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(body[i])
            i += 1
    return re.compile(out if anchored else r"(?:.*/)?" + out)


def _value(token: str) -> tuple[str, bool | None]:
    if token.startswith(("-", "!")):
        return token[1:], False if token[0] == "-" else None
    name, _, value = token.partition("=")
    return name, value.lower() not in ("false", "0", "no") if value else True


def parse(text: str) -> tuple[Rule, ...]:
    rules = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#") or fields[0].startswith("[attr]"):
            continue
        attrs = {}
        for token in fields[1:]:
            name, value = _value(token)
            if name in (GENERATED, VENDORED) and value is not None:
                attrs[name] = value
        if attrs:
            rules.append(Rule(glob_regex(fields[0]), fields[0], attrs))
    return tuple(rules)


def marked(rules: tuple[Rule, ...], path: str, attr: str) -> bool:
    """Whether `attr` is set on `path`: the last rule that matches and names it decides."""
    for rule in reversed(rules):
        if attr in rule.attrs and rule.pattern.fullmatch(path):
            return rule.attrs[attr]
    return False


def newly_marked(base: tuple[Rule, ...], head: tuple[Rule, ...]) -> list[Rule]:
    """Head rules that mark paths generated or vendored and are not at the base."""
    before = {(r.text, tuple(sorted(r.attrs.items()))) for r in base}
    return [r for r in head if any(r.attrs.values())
            and (r.text, tuple(sorted(r.attrs.items()))) not in before]
