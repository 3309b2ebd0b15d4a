"""tsconfig*.json compared as parsed data: what a change makes the TypeScript compiler check less.

Reported: a strictness option turned off, or removed where the base had it on (`strict` and the
flags it implies are read with their effective value, so `strict: true` -> `noImplicitAny:
false` counts); an option that silences errors turned on (`skipLibCheck`...); `include` or
`files` narrowed, `exclude` widened. Tightening, reformatting and comments raise nothing.
"""
from __future__ import annotations

from gate import jsonc
from gate.config_diff import ABSENT, dig, json_line, show

Change = tuple[int, str]  # head line, message
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


def _options(base: Table, head: Table, text: str) -> list[Change]:
    old, new = dig(base, "compilerOptions"), dig(head, "compilerOptions")
    out = []
    for name in STRICTER_WHEN_ON + LOOSER_WHEN_ON:
        loosened = (_effective(old, name) and not _effective(new, name)
                    if name in STRICTER_WHEN_ON
                    else not _effective(old, name) and _effective(new, name))
        # A flag that only followed `strict` on both sides is reported as `strict`.
        if loosened and (name not in STRICT_FAMILY or name in old or name in new):
            line = json_line(text, ["compilerOptions", name])
            out.append((line, f"compilerOptions.{name}: {show(old.get(name, ABSENT))} "
                        f"-> {show(new.get(name, ABSENT))}; {NOTE}"))
    return out


def _whole_directory(config: Table) -> bool:
    """No `include` and no `files`: every file under the directory is compiled."""
    return "include" not in config and "files" not in config


def _scope(base: Table, head: Table, text: str) -> list[Change]:
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


def compare(base: Table, head: Table, head_text: str) -> list[Change]:
    """What the head's tsconfig no longer checks that the base's did."""
    text = jsonc.strip(head_text)  # a key in a comment is not the key
    return _options(base, head, text) + _scope(base, head, text)


def is_tsconfig(name: str) -> bool:
    return name.startswith("tsconfig") and name.endswith(".json")

