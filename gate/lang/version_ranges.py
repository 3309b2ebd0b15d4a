"""Whether a version range admits a version, in the range languages of npm (node-semver) and
Cargo; Python's (PEP 440) is the `packaging` library's. Ranges that are not versions (a git URL,
a path, a tag) are `None`: nothing can be said of them.

npm: `||` unions of space-separated comparators, `A - B` hyphen ranges, `^`, `~`, `x`/`*`
wildcards and partial versions (`1.2` is `>=1.2.0 <1.3.0`). Cargo: comma-separated comparators,
a bare version is `^`. Pre-release tags are ignored: `1.2.3-rc.1` counts as 1.2.3.
"""
from __future__ import annotations

import re

Version = tuple[int, int, int]
_PARTIAL = re.compile(r"^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?"
                      r"(?:[-+][0-9A-Za-z.+-]*)?$")
_COMPARATOR = re.compile(r"^(<=|>=|<|>|=|\^|~>?|)\s*(.+)$")
_TOP = 1 << 62


def parse_version(text: str) -> Version | None:
    match = _PARTIAL.match(text.strip())
    if match is None or any(p is None or not p.isdigit() for p in match.groups()):
        return None
    major, minor, patch = (int(p) for p in match.groups())
    return major, minor, patch


def _partial(text: str) -> list[int] | None:
    """The numbers given, up to the first wildcard: `1.2.x` is [1, 2]; None if not a version."""
    match = _PARTIAL.match(text.strip())
    if match is None:
        return None
    out = []
    for part in match.groups():
        if part is None or not part.isdigit():
            break
        out.append(int(part))
    return out


def _pad(parts: list[int]) -> Version:
    full = [*parts, 0, 0, 0][:3]
    return full[0], full[1], full[2]


def _next(parts: list[int]) -> Version:
    """The first version past a partial one: 1.2 -> 1.3.0, 1 -> 2.0.0, nothing -> the top."""
    if not parts:
        return _TOP, 0, 0
    bumped = [*parts[:-1], parts[-1] + 1]
    return _pad(bumped)


Bound = tuple[Version, Version]  # [low, high): every version admitted lies in it


def _caret(parts: list[int]) -> Bound:
    low = _pad(parts)
    nonzero = next((i for i, p in enumerate(parts) if p != 0), None)
    if nonzero is None:  # ^0, ^0.0, ^0.0.0
        return low, _next(parts)
    return low, _next(parts[:nonzero + 1])


def _comparator(op: str, text: str, bare: str) -> Bound | None:
    parts = _partial(text)
    if parts is None:
        return None
    op = op or bare
    if op == "^":
        return _caret(parts)
    if op in ("~", "~>"):
        return _pad(parts), _next(parts[:2] if len(parts) > 1 else parts)
    if op in ("=", ""):
        return _pad(parts), _next(parts) if len(parts) < 3 else _after(_pad(parts))
    if op == ">=":
        return _pad(parts), (_TOP, 0, 0)
    if op == ">":
        return (_next(parts) if len(parts) < 3 else _after(_pad(parts))), (_TOP, 0, 0)
    if op == "<":
        return (0, 0, 0), _pad(parts)
    if op == "<=":
        return (0, 0, 0), _next(parts) if len(parts) < 3 else _after(_pad(parts))
    return None


def _after(v: Version) -> Version:
    return v[0], v[1], v[2] + 1


def _within(version: Version, bounds: list[Bound]) -> bool:
    return all(low <= version < high for low, high in bounds)


def _all_of(items: list[str], bare: str) -> list[Bound] | None:
    bounds = []
    for item in items:
        match = _COMPARATOR.match(item.strip())
        if match is None:
            return None
        found = _comparator(match.group(1), match.group(2), bare)
        if found is None:
            return None
        bounds.append(found)
    return bounds


def npm_admits(spec: str, version: Version) -> bool | None:
    """Whether the npm range `spec` admits `version`; None where `spec` is not a range."""
    spec = spec.strip()
    if spec in ("", "*", "x", "X", "latest"):
        return True
    alternatives = []
    for alternative in spec.split("||"):
        alternative = alternative.strip()
        hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", alternative)
        if hyphen:
            low, high = _partial(hyphen.group(1)), _partial(hyphen.group(2))
            if low is None or high is None:
                return None
            alternatives.append([(_pad(low), _next(high) if len(high) < 3
                                  else _after(_pad(high)))])
            continue
        spaced = re.sub(r"(<=|>=|<|>|=|\^|~)\s+", r"\1", alternative)
        bounds = _all_of(spaced.split() or ["*"], "=")
        if bounds is None:
            return None
        alternatives.append(bounds)
    return any(_within(version, b) for b in alternatives)


def cargo_admits(spec: str, version: Version) -> bool | None:
    """Whether the Cargo requirement `spec` admits `version`; None where it is not one."""
    items = [i for i in spec.split(",") if i.strip()]
    if not items or spec.strip() == "*":
        return True
    bounds = _all_of(items, "^")
    return None if bounds is None else _within(version, bounds)

