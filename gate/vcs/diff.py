"""The change between two refs, parsed once with unidiff: which files, which lines were added or
removed, and which added files are another file moved (renamed) with lines it kept unchanged."""
from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable
from typing import Literal

from unidiff.constants import DEV_NULL
from unidiff.patch import PatchedFile, PatchSet

from gate.vcs import git

FileStatus = Literal["added", "modified", "deleted"]
RENAMES = ("--find-renames", "--diff-filter=R")  # the second reading, only of renamed files


@dataclasses.dataclass(frozen=True)
class ChangedFile:
    path: str
    status: FileStatus
    added: dict[int, str]  # head line number -> text, without the newline
    removed: dict[int, str]  # base line number -> text
    binary: bool = False
    symlink: bool = False
    moved_from: str | None = None  # an added file that git finds renamed from this base path
    moved: frozenset[int] = frozenset()  # head lines of an added file unchanged from moved_from

    @property
    def new_lines(self) -> dict[int, str]:
        """The added lines that are new: not kept unchanged through a rename."""
        if not self.moved:
            return self.added
        return {n: text for n, text in self.added.items() if n not in self.moved}


def _unquote(path: str) -> str:
    """A path as git prints it: C-quoted ("a/t\\tb") when it holds special characters."""
    if not path.startswith('"'):
        return path
    raw = path[1:-1].encode("utf-8", "surrogateescape").decode("unicode_escape")
    return raw.encode("latin-1").decode("utf-8", "surrogateescape")


def _header(patch: PatchedFile, prefix: str) -> str | None:
    """The path of a `rename from`-like header line (C-quoted by git when needed)."""
    for line in patch.patch_info or ():
        if line.startswith(prefix):
            return _unquote(line[len(prefix):].rstrip("\n"))
    return None


def _git_line_path(patch: PatchedFile) -> str:
    """The path of a `diff --git a/P b/P` line, both sides the same (no renames): read from the
    line itself, since unidiff cannot split a path that holds a space."""
    rest = next(line for line in patch.patch_info or () if line.startswith("diff --git "))
    rest = rest[len("diff --git "):].rstrip("\n")
    if rest.startswith('"'):
        return _unquote(rest[:rest.index('" ', 1) + 1])[2:]
    return rest[2:2 + (len(rest) - 5) // 2]  # "a/P b/P": both halves the same length


def _lines(patch: PatchedFile) -> tuple[dict[int, str], dict[int, str]]:
    added: dict[int, str] = {}
    removed: dict[int, str] = {}
    for hunk in patch:
        for line in hunk:
            if line.is_added and line.target_line_no is not None:
                added[line.target_line_no] = line.value.rstrip("\n").rstrip("\r")
            elif line.is_removed and line.source_line_no is not None:
                removed[line.source_line_no] = line.value.rstrip("\n").rstrip("\r")
    return added, removed


def _changed(patch: PatchedFile) -> ChangedFile:
    status: FileStatus = ("added" if patch.source_file == DEV_NULL else
                          "deleted" if patch.target_file == DEV_NULL else "modified")
    added, removed = _lines(patch)
    return ChangedFile(_git_line_path(patch), status, added, removed, binary=patch.is_binary_file,
                       symlink=patch.is_symlink)


def _patches(diff_text: str) -> Iterable[PatchedFile]:
    return PatchSet(io.StringIO(diff_text))  # lines split on "\n" only, as git writes them


def parse(diff_text: str) -> list[ChangedFile]:
    """`git diff` output (pinned by DIFF_OPTIONS, no renames) as changed files."""
    return [_changed(patch) for patch in _patches(diff_text)]


def parse_renames(diff_text: str) -> dict[str, tuple[str, frozenset[int]]]:
    """`git diff --find-renames --diff-filter=R` output: for each new path, the base path it
    was moved from and the head lines the move added (the rest it kept unchanged)."""
    out = {}
    for patch in _patches(diff_text):
        old, new = _header(patch, "rename from "), _header(patch, "rename to ")
        if old is not None and new is not None:
            out[new] = (old, frozenset(_lines(patch)[0]))
    return out


def with_moves(files: list[ChangedFile], renames: dict[str, tuple[str, frozenset[int]]],
               ) -> list[ChangedFile]:
    """The added files that are renamed ones, told which of their lines are not new."""
    out = []
    for f in files:
        if f.status == "added" and f.path in renames:
            old, new_lines = renames[f.path]
            f = dataclasses.replace(f, moved_from=old, moved=frozenset(f.added) - new_lines)
        out.append(f)
    return out


def _read(repo: str, *args: str, index: bool = False) -> str:
    return git.run(repo, "-c", "core.quotePath=false", "diff", *args,
                   index=index).decode("utf-8", "surrogateescape")


def _compare(repo: str, sides: tuple[str, ...], index: bool = False) -> list[ChangedFile]:
    files = parse(_read(repo, *git.DIFF_OPTIONS, *sides, "--", index=index))
    if not any(f.status == "added" for f in files) or not any(
            f.status == "deleted" for f in files):
        return files  # nothing can have been renamed: no second reading
    options = [o for o in git.DIFF_OPTIONS if o != "--no-renames"]
    renames = parse_renames(_read(repo, *options, *RENAMES, *sides, "--", index=index))
    return with_moves(files, renames)


def changed_files(repo: str, base: str, head: str) -> list[ChangedFile]:
    """Files changed from `base` (a commit) to `head`; `git diff base head`."""
    return _compare(repo, (base, head))


def staged_files(repo: str, base: str) -> list[ChangedFile]:
    """Files changed from `base` (a commit) to the index; `git diff --cached base`."""
    return _compare(repo, ("--cached", base), index=True)
