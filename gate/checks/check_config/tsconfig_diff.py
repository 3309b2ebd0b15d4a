"""tsconfig*.json compared as parsed data: what a change makes the TypeScript compiler check less.

Reported: a strictness option turned off, or removed where the base had it on (`strict` and the
flags it implies are read with their effective value, so `strict: true` -> `noImplicitAny:
false` counts); an option that silences errors turned on (`skipLibCheck`...); `include` or
`files` narrowed, `exclude` widened. Tightening, reformatting and comments raise nothing.

`extends` is followed where it names a file of the repository (`./tsconfig.base.json`, `../x`):
each side is compared with what it inherits, so an `extends` that now points at a laxer file is
a loosened option. An `extends` that names a package (`@tsconfig/strictest`) cannot be read
from the repository: changing it is a finding of its own.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from gate.checks.check_config import jsonc
from gate.checks.check_config.config_diff import ABSENT, Weakening, dig, json_line, show

Table = dict[str, object]

# Implied by `strict: true` unless set on their own.
STRICT_FAMILY = ("noImplicitAny", "strictNullChecks", "strictFunctionTypes",
                 "strictBindCallApply", "strictPropertyInitialization", "noImplicitThis",
                 "alwaysStrict", "useUnknownInCatchVariables", "strictBuiltinIteratorReturn")
STRICTER_WHEN_ON = ("strict", *STRICT_FAMILY, "noUnusedLocals", "noUnusedParameters",
                    "noImplicitReturns", "noFallthroughCasesInSwitch", "noUncheckedIndexedAccess",
                    "noImplicitOverride", "noPropertyAccessFromIndexSignature",
                    "exactOptionalPropertyTypes", "checkJs", "forceConsistentCasingInFileNames")
LOOSER_WHEN_ON = ("skipLibCheck", "skipDefaultLibCheck", "suppressImplicitAnyIndexErrors",
                  "suppressExcessPropertyErrors", "allowUnreachableCode", "allowUnusedLabels",
                  "noStrictGenericChecks", "keyofStringsOnly")
# Excluded when `exclude` is not given: excluding them again excludes nothing more.
DEFAULT_EXCLUDE = ("node_modules", "bower_components", "jspm_packages")
NOTE = "the compiler now checks less"
INHERITED = ("files", "include", "exclude")  # taken from the extended file when not set
_MAX_DEPTH = 10


def load(text: str) -> Table:
    """A tsconfig as data; ValueError when it is not a JSON(C) object."""
    data = jsonc.loads(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the document is not a JSON object")
    return data


def _effective(options: Table, name: str) -> bool:
    value = options.get(name, ABSENT)
    if value is ABSENT and name in STRICT_FAMILY:
        value = options.get("strict", False)
    return value is True


def _patterns(value: object) -> set[str]:
    """Path patterns, written the same way: `./src/`, `src/**/*` and `src/**` are `src`."""
    if not isinstance(value, list):
        return set()
    out = set()
    for item in value:
        text = str(item).strip()
        while text.startswith("./"):
            text = text[2:]
        for tail in ("/**/*", "/**", "/"):
            if text.endswith(tail) and len(text) > len(tail):
                text = text[:-len(tail)]
        out.add(text)
    return out


def _options(base: Table, head: Table, text: str) -> list[Weakening]:
    old, new = dig(base, "compilerOptions"), dig(head, "compilerOptions")
    out = []
    for name in STRICTER_WHEN_ON + LOOSER_WHEN_ON:
        loosened = (_effective(old, name) and not _effective(new, name)
                    if name in STRICTER_WHEN_ON
                    else not _effective(old, name) and _effective(new, name))
        # A flag that only followed `strict` on both sides is reported as `strict`.
        if loosened and (name not in STRICT_FAMILY or name in old or name in new):
            # An option the head only inherits is shown at its `extends`.
            own = re.search(rf'"{name}"\s*:', text) or "extends" not in head
            line = json_line(text, ["compilerOptions", name] if own else ["extends"])
            out.append((line, f"compilerOptions.{name}: {show(old.get(name, ABSENT))} "
                        f"-> {show(new.get(name, ABSENT))}; {NOTE}"))
    return out


def _whole_directory(config: Table) -> bool:
    """No `include` and no `files`: every file under the directory is compiled."""
    return "include" not in config and "files" not in config


def _scope(base: Table, head: Table, text: str) -> list[Weakening]:
    out = []
    for key in ("include", "files"):
        before, after = base.get(key, ABSENT), head.get(key, ABSENT)
        if _whole_directory(head) or (after is ABSENT and before is ABSENT):
            continue
        if _whole_directory(base) or _patterns(before) - _patterns(after):
            line = json_line(text, [key]) if after is not ABSENT else 1
            out.append((line, f"{key}: {show(before)} -> {show(after)}; "
                        "fewer files are type-checked"))
    out_dirs = {str(v) for v in (dig(base, "compilerOptions").get("outDir"),
                                 dig(head, "compilerOptions").get("outDir")) if v}
    added = (_patterns(head.get("exclude")) - _patterns(base.get("exclude"))
             - _patterns([*DEFAULT_EXCLUDE, *out_dirs]))
    if added:
        out.append((json_line(text, ["exclude"]), f"exclude: {show(base.get('exclude', ABSENT))}"
                    f" -> {show(head.get('exclude', ABSENT))}; fewer files are type-checked"))
    return out


def _targets(config: Table) -> list[str]:
    """`extends` as a list (TypeScript 5 accepts one name or several)."""
    value = config.get("extends")
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list) else []


def _is_package(target: str) -> bool:
    """An `extends` that names a package (`@tsconfig/strictest`), not a file by its path."""
    return not target.startswith(("./", "../"))


def _local(path: str, target: str) -> str | None:
    """The repository path an `extends` names, None for a package."""
    if _is_package(target):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return joined if joined.endswith(".json") else joined + ".json"


def resolved(path: str, config: Table, read: Callable[[str], str | None],
             depth: int = 0) -> Table:
    """`config` with what it inherits through `extends` from files of the repository (read
    with `read`; a package, a file absent or that does not parse, is left out): the extended
    compilerOptions under its own, `files`, `include` and `exclude` where it sets none."""
    merged: Table = {}
    for target in _targets(config) if depth < _MAX_DEPTH else []:
        local = _local(path, target)
        text = read(local) if local else None
        try:
            parent = resolved(local, load(text), read, depth + 1) if local and text else {}
        except ValueError:
            parent = {}
        options = {**dig(merged, "compilerOptions"), **dig(parent, "compilerOptions")}
        merged = {**merged, **{k: parent[k] for k in INHERITED if k in parent},
                  "compilerOptions": options}
    own = {**dig(merged, "compilerOptions"), **dig(config, "compilerOptions")}
    return {**{k: merged[k] for k in INHERITED if k in merged}, **config,
            "compilerOptions": own}


def _extends(base: Table, head: Table, text: str) -> list[Weakening]:
    """An `extends` naming a package changed: what it brings cannot be compared here."""
    before, after = _targets(base), _targets(head)
    packages = [t for t in {*before, *after} if _is_package(t)]
    if before == after or not packages:
        return []
    return [(json_line(text, ["extends"]),
             f"extends: {show(base.get('extends', ABSENT))} -> "
             f"{show(head.get('extends', ABSENT))}; the compiler's settings now come from a "
             "package the gate cannot read: check they are as strict")]


def compare(base: Table, head: Table, head_text: str) -> list[Weakening]:
    """What the head's tsconfig no longer checks that the base's did (both sides with what
    they inherit, see `resolved`)."""
    text = jsonc.strip(head_text)  # a key in a comment is not the key
    return _extends(base, head, text) + _options(base, head, text) + _scope(base, head, text)


def is_tsconfig(name: str) -> bool:
    return name.startswith("tsconfig") and name.endswith(".json")

