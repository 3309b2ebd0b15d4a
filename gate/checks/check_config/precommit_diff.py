"""`.pre-commit-config.yaml` compared as parsed data: which hooks stop running, or see fewer files.

Reported: a hook removed (hooks are matched by id, or alias, whatever repository or version they
come from, or by their place in the same repository when renamed there: `ruff` to `ruff-check`);
its `stages` narrowed among the hook types the base installs (`pre-commit` unless
`default_install_hook_types` says more); `files`, `exclude` or the top-level ones changed so that
a hook no longer sees a file of the head it saw with the base's config (judged on the head's
tracked files, so a changed pattern that leaves out nothing raises nothing); `types` or
`exclude_types` made stricter, `types_or` shortened; a hook added to pre-commit.ci's `ci.skip`;
a hook's `entry` changed (the command it runs); its `args` losing an argument, or gaining one
that tells a tool to check less (`--exit-zero`, `--ignore=...`, `--disable`, another config
file...). An argument added that checks more (`--strict`) raises nothing.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from gate.checks.check_config.config_diff import ABSENT, Weakening, show
from gate.checks.check_config.workflow_diff import Key, Lines

Table = dict[str, object]
Hook = tuple[tuple[Key, ...], Table]  # path from the document root, the hook

# Arguments that make a linter or type checker check less, or check by other rules.
_LOOSER_ARG = re.compile(
    r"^(?:--?(?:exit-zero|(?:extend-)?ignore\w*|disable\w*|skip\w*|(?:extend-)?exclude\w*"
    r"|per-file-ignores|no-\w+|allow\w*|(?:extend-)?select|max-\w+|config\w*|rcfile"
    r"|settings\w*|fail-under|baseline|runs)|-i)(?:[=\s].*)?$")  # runs: the gate's own hook
_STAGE_NAMES = {"commit": "pre-commit", "push": "pre-push", "merge-commit": "pre-merge-commit"}
_FILTERS = ("files", "exclude")
# File types of `identify` that a suffix decides, for telling which files a hook sees; other
# types are not judged (every file passes them).
_TYPE_SUFFIXES = {
    "python": (".py", ".pyi"), "pyi": (".pyi",), "javascript": (".js", ".mjs", ".cjs"),
    "jsx": (".jsx",), "ts": (".ts", ".mts", ".cts"), "tsx": (".tsx",), "go": (".go",),
    "rust": (".rs",), "java": (".java",), "kotlin": (".kt", ".kts"), "ruby": (".rb",),
    "yaml": (".yml", ".yaml"), "json": (".json",), "toml": (".toml",), "markdown": (".md",),
    "shell": (".sh", ".bash"), "c": (".c", ".h"), "css": (".css",), "html": (".html", ".htm"),
}


def _hooks(config: Table) -> dict[str, list[Hook]]:
    """Hooks by their name (alias, else id), in file order."""
    out: dict[str, list[Hook]] = {}
    repos = config.get("repos")
    for i, repo in enumerate(repos if isinstance(repos, list) else []):
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for j, hook in enumerate(hooks if isinstance(hooks, list) else []):
            if isinstance(hook, dict):
                name = str(hook.get("alias") or hook.get("id"))
                out.setdefault(name, []).append((("repos", i, "hooks", j), hook))
    return out


def _stages(names: object) -> set[str] | None:
    if not isinstance(names, list):
        return None  # every stage
    return {_STAGE_NAMES.get(str(n), str(n)) for n in names}


def _effective_stages(config: Table, hook: Table) -> set[str] | None:
    return _stages(hook.get("stages", config.get("default_stages")))


def _installed(config: Table) -> set[str]:
    return _stages(config.get("default_install_hook_types")) or {"pre-commit"}


def _compiled(pattern: object, default: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern if isinstance(pattern, str) else default)
    except re.error:  # pre-commit itself stops on it: nothing is silently left out
        return re.compile(default)


def _seen(table: Table, paths: Sequence[str]) -> set[str]:
    """The paths that `files` and `exclude` of `table` let through (pre-commit: re.search)."""
    files, exclude = _compiled(table.get("files"), ""), _compiled(table.get("exclude"), "^$")
    return {p for p in paths if files.search(p) and not exclude.search(p)}


def _typed(types: object, path: str) -> bool:
    suffixes = [_TYPE_SUFFIXES.get(str(t)) for t in types] if isinstance(types, list) else []
    return all(path.endswith(s) for s in suffixes if s is not None)


def _of_types(hook: Table, paths: Sequence[str]) -> list[str]:
    """The paths whose types the hook (at head) accepts, as far as a suffix tells."""
    any_of = hook.get("types_or")
    known = ([_TYPE_SUFFIXES.get(str(t)) for t in any_of] if isinstance(any_of, list) else [])
    return [p for p in paths if _typed(hook.get("types"), p) and (
        not known or None in known or any(p.endswith(s) for s in known if s is not None))]


def _filters(what: str, old: Table, new: Table, paths: Sequence[str]) -> str | None:
    if all(old.get(key) == new.get(key) for key in _FILTERS):
        return None
    paths = _of_types(new, paths)
    lost = sorted(_seen(old, paths) - _seen(new, paths))
    if not lost:
        return None
    changed = "; ".join(f"{key} {show(old.get(key, ABSENT))} -> {show(new.get(key, ABSENT))}"
                        for key in _FILTERS if old.get(key) != new.get(key))
    more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
    return f"{what}: {changed}: no longer checks {lost[0]}{more}"


def _types(old: Table, new: Table) -> list[tuple[str, str]]:
    out = []
    for key, stricter in (("types", True), ("exclude_types", True), ("types_or", False)):
        before, after = old.get(key), new.get(key)
        b = set(map(str, before)) if isinstance(before, list) else set()
        a = set(map(str, after)) if isinstance(after, list) else set()
        if (a - b if stricter else (b - a if a else set())):
            out.append((key, f"{key} {show(old.get(key, ABSENT))} -> "
                        f"{show(new.get(key, ABSENT))}"))
    return out


def _hook(name: str, base: Table, head: Table, old: Table, new: Table,
          paths: Sequence[str]) -> list[tuple[Key, str]]:
    out: list[tuple[Key, str]] = []
    installed = _installed(base)
    before = _effective_stages(base, old)
    after = _effective_stages(head, new)
    lost = (installed if before is None else before & installed) - (
        installed if after is None else after)
    if lost:
        out.append(("stages", f"hook `{name}`: stages {show(old.get('stages', ABSENT))} -> "
                    f"{show(new.get('stages', ABSENT))}: it no longer runs at "
                    f"{', '.join(sorted(lost))}"))
    narrowed = _filters(f"hook `{name}`", old, new, paths)
    if narrowed is not None:
        key = next((k for k in _FILTERS if old.get(k) != new.get(k)), "id")
        out.append((key, narrowed))
    out.extend((key, f"hook `{name}`: {text}: it checks fewer files")
               for key, text in _types(old, new))
    return out + _command(name, old, new)


def _words(args: object) -> list[str]:
    return [str(a) for a in args] if isinstance(args, list) else []


def _command(name: str, old: Table, new: Table) -> list[tuple[Key, str]]:
    """The command a hook runs: its `entry`, and its `args` losing or loosening."""
    out: list[tuple[Key, str]] = []
    if "entry" in old and old.get("entry") != new.get("entry"):
        out.append(("entry", f"hook `{name}`: entry {show(old['entry'])} -> "
                    f"{show(new.get('entry', ABSENT))}: it runs another command"))
    before, after = _words(old.get("args")), _words(new.get("args"))
    removed = [a for a in before if a not in after]
    looser = [a for a in after if a not in before and _LOOSER_ARG.match(a)]
    if removed or looser:
        what = "; ".join([*(f"{a} removed" for a in removed), *(f"{a} added" for a in looser)])
        out.append(("args", f"hook `{name}`: args {show(old.get('args', ABSENT))} -> "
                    f"{show(new.get('args', ABSENT))} ({what}): it may check less"))
    return out


def _skipped(base: Table, head: Table) -> set[str]:
    def ids(config: Table) -> set[str]:
        ci = config.get("ci")
        skip = ci.get("skip") if isinstance(ci, dict) else None
        return set(map(str, skip)) if isinstance(skip, list) else set()
    return ids(head) - ids(base)


def _by_place(config: Table) -> dict[tuple[str, int], Hook]:
    """Hooks by their repository and their place among its hooks."""
    out: dict[tuple[str, int], Hook] = {}
    repos = config.get("repos")
    for i, repo in enumerate(repos if isinstance(repos, list) else []):
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for j, hook in enumerate(hooks if isinstance(hooks, list) else []):
            if isinstance(hook, dict):
                out[(str(repo.get("repo")), j)] = (("repos", i, "hooks", j), hook)
    return out


def _renamed(base: Table, head: Table, old_names: set[str], new_names: set[str],
             ) -> dict[tuple[Key, ...], Hook]:
    """A hook whose name is gone, matched to the head's hook of a new name at its place in the
    same repository (ruff-pre-commit's `ruff` become `ruff-check`): the same hook, renamed,
    whose other changes are then judged as any hook's."""
    def name(hook: Table) -> str:
        return str(hook.get("alias") or hook.get("id"))
    after = _by_place(head)
    out = {}
    for place, (where, hook) in _by_place(base).items():
        new = after.get(place)
        if name(hook) not in new_names and new is not None and name(new[1]) not in old_names:
            out[where] = new
    return out


def compare(base: Table, head: Table, head_text: str, paths: Sequence[str]) -> list[Weakening]:
    """What the head's pre-commit config no longer checks that the base's did; `paths` are the
    files tracked at head."""
    lines = Lines(head_text)
    out: list[Weakening] = []
    old_hooks, new_hooks = _hooks(base), _hooks(head)
    renamed = _renamed(base, head, set(old_hooks), set(new_hooks))
    for name, entries in old_hooks.items():
        heads = new_hooks.get(name, [])
        for (where, old), pair in zip(entries, [*heads, *[None] * len(entries)], strict=False):
            pair = pair or renamed.get(where)
            if pair is None:
                out.append((lines(("repos",)), f"hook `{name}` removed"))
                continue
            path, new = pair
            out.extend((lines((*path, key)), text)
                       for key, text in _hook(name, base, head, old, new, paths))
    top = _filters("top level", base, head, paths)
    if top is not None:
        key = next(k for k in _FILTERS if base.get(k) != head.get(k))
        out.append((lines((key,)), top.replace("no longer checks", "no hook checks")))
    out.extend((lines(("ci", "skip")), f"hook `{name}` added to ci.skip: pre-commit.ci no "
                "longer runs it") for name in sorted(_skipped(base, head)))
    return out
