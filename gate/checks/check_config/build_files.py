"""Build and packaging files deleted or emptied: setup.py, setup.cfg, pyproject.toml's
[build-system], package.json's scripts, Cargo.toml, go.mod, Makefiles, tox.ini, noxfile.py.
With them goes the way the project builds, installs and runs its tests, so the gate's own
install and suite no longer mean what they did at base."""
from __future__ import annotations

import json
import posixpath

from gate import toml
from gate.engine.context import DiffContext
from gate.lang import generated, testfiles
from gate.models import Finding
from gate.vcs import git
from gate.vcs.diff import ChangedFile

BUILD_FILES = ("setup.py", "setup.cfg", "pyproject.toml", "package.json", "Cargo.toml",
               "go.mod", "Makefile", "makefile", "GNUmakefile", "tox.ini", "noxfile.py")
SETUPTOOLS = ("setup.py", "setup.cfg")  # metadata that pyproject.toml's [project] replaces
NOTE = ("the project's build, install or test commands go with it; restore it, or have a "
        "person approve the removal")


def _finding(path: str, rule: str, what: str) -> Finding:
    return Finding(path=path, line=1, rule=rule, severity="warning", message=f"{what}: {NOTE}")


def _table(text: str | None, parse: str) -> dict[str, object] | None:
    """pyproject.toml or package.json as data; None where it does not parse (check-config's
    own handlers report a head that does not parse)."""
    try:
        data = toml.loads(text or "") if parse == "toml" else json.loads(text or "{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _lost(old: str | None, new: str | None, parse: str, key: str) -> object:
    """The base's `key` when the head, which parses, has none; None otherwise."""
    before, after = _table(old, parse), _table(new, parse)
    if before is None or after is None or after.get(key):
        return None
    return before.get(key) or None


def _emptied_part(path: str, old: str | None, new: str | None) -> Finding | None:
    name = posixpath.basename(path)
    if name == "pyproject.toml" and _lost(old, new, "toml", "build-system"):
        return _finding(path, "build-system-removed", f"{path} loses its [build-system]")
    if name == "package.json":
        before = _lost(old, new, "json", "scripts")
        if isinstance(before, dict):
            return _finding(path, "package-scripts-removed",
                            f"{path} loses all its scripts ({', '.join(sorted(before))})")
    return None


def _migrated(ctx: DiffContext, directory: str) -> bool:
    """Whether the change moves the package's metadata into pyproject.toml: the head's has a
    [project] table that the base's lacks (setup.py and setup.cfg then go honestly)."""
    path = posixpath.join(directory, "pyproject.toml")
    before = _table(ctx.text(ctx.base, path), "toml") or {}
    after = _table(ctx.text(ctx.head, path), "toml") or {}
    return "project" in after and "project" not in before


def _watched(ctx: DiffContext, f: ChangedFile) -> bool:
    return (posixpath.basename(f.path) in BUILD_FILES and f.status != "added"
            and testfiles.test_tree(f.path) is None and not generated.is_generated(f.path)
            and not ctx.is_vendored(f.path))


def findings(ctx: DiffContext) -> list[Finding]:
    """Every build or packaging file the change deletes (unless its whole directory goes, or
    setuptools' files give way to a new [project] in pyproject.toml) or empties, and the build
    parts it cuts out of one."""
    files = [f for f in ctx.files if _watched(ctx, f)]
    if not files:
        return []
    paths = [f.path for f in files]
    old, new = ctx.read(ctx.base, paths), ctx.read(ctx.head, paths)
    head_dirs: set[str] | None = None
    out = []
    for f in files:
        directory = posixpath.dirname(f.path)
        if f.status == "deleted":
            if head_dirs is None:
                head_dirs = {posixpath.dirname(p) for p in git.ls_files(ctx.repo, ctx.head)}
            kept = directory == "" or any(d == directory or d.startswith(directory + "/")
                                          for d in head_dirs)
            moved = posixpath.basename(f.path) in SETUPTOOLS and _migrated(ctx, directory)
            if kept and not moved:
                out.append(_finding(f.path, "build-file-removed", f"{f.path} deleted"))
            continue
        before, after = (_text(old[f.path]), _text(new[f.path]))
        if (before or "").strip() and not (after or "").strip():
            out.append(_finding(f.path, "build-file-removed", f"{f.path} emptied"))
            continue
        part = _emptied_part(f.path, before, after)
        if part is not None:
            out.append(part)
    return out


def _text(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")
