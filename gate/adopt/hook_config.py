"""The gate's two hooks in a `.pre-commit-config.yaml`: added where missing, nothing else
touched, and `pre-push` among the hook types that `pre-commit install` installs."""
from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from gate.adopt import release, yaml_edit

PATH = ".pre-commit-config.yaml"
HOOK_IDS = ("gate-scan", "gate")
HOOK_TYPES = ("pre-commit", "pre-push")


def _same_repo(url: object) -> bool:
    def norm(u: str) -> str:
        return u.rstrip("/").removesuffix(".git").lower()
    return isinstance(url, str) and norm(url) == norm(release.REPOSITORY)


def _hooks(ids: tuple[str, ...]) -> CommentedSeq:
    return CommentedSeq(CommentedMap(id=hook_id) for hook_id in ids)


def _add_hooks(loaded: Any) -> CommentedMap:
    data = loaded if isinstance(loaded, CommentedMap) else CommentedMap(
        default_install_hook_types=None)  # a new file: this key first, as the README shows
    repos = data.setdefault("repos", CommentedSeq())
    entry = next((r for r in repos if isinstance(r, dict) and _same_repo(r.get("repo"))), None)
    if entry is None:
        repos.append(CommentedMap(repo=release.REPOSITORY, rev=release.TAG,
                                  hooks=_hooks(HOOK_IDS)))
    else:
        hooks = entry.setdefault("hooks", CommentedSeq())
        present = {h.get("id") for h in hooks if isinstance(h, dict)}
        hooks.extend(_hooks(tuple(i for i in HOOK_IDS if i not in present)))
    types = data.get("default_install_hook_types")
    if types is None:
        types = CommentedSeq(HOOK_TYPES)
        types.fa.set_flow_style()
        data["default_install_hook_types"] = types  # last: a comment on the first key stays
    elif isinstance(types, list):
        types.extend(t for t in HOOK_TYPES if t not in types)
    return data


def with_hooks(text: str | None) -> str:
    """The config `text` (None: no file yet) with both hooks in it."""
    return yaml_edit.edit(text or "", PATH, _add_hooks)
