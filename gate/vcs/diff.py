"""The change between two refs, parsed once: which files, which lines were added or removed."""
from __future__ import annotations

import dataclasses
import re
from typing import Literal

from gate.vcs import git

FileStatus = Literal["added", "modified", "deleted"]


@dataclasses.dataclass(frozen=True)
class ChangedFile:
    path: str
    status: FileStatus
    added: dict[int, str]  # head line number -> text, without the newline
    removed: dict[int, str]  # base line number -> text
    binary: bool = False
    symlink: bool = False


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _unquote(path: str) -> str:
    """A path as git prints it: C-quoted ("a/t\\tb") when it holds special characters."""
    if not path.startswith('"'):
        return path
    raw = path[1:-1].encode("utf-8", "surrogateescape").decode("unicode_escape")
    return raw.encode("latin-1").decode("utf-8", "surrogateescape")


def _header_path(line: str) -> str | None:
    """The path of a `--- a/x` or `+++ b/x` line; None for /dev/null."""
    name = _unquote(line[4:].rstrip("\t"))
    return None if name == "/dev/null" else name[2:]


def _git_line_path(line: str) -> str:
    """The path of a `diff --git a/x b/x` line (both sides are the same without renames)."""
    rest = line[len("diff --git "):]
    if rest.startswith('"'):
        return _unquote(rest[:rest.index('" ', 1) + 1])[2:]
    return rest[2:2 + (len(rest) - 5) // 2]  # "a/P b/P": both halves the same length


@dataclasses.dataclass
class _Draft:
    path: str
    header: list[str] = dataclasses.field(default_factory=list)
    added: dict[int, str] = dataclasses.field(default_factory=dict)
    removed: dict[int, str] = dataclasses.field(default_factory=dict)

    def done(self) -> ChangedFile:
        head = "\n".join(self.header)
        status: FileStatus = ("added" if "\nnew file mode" in "\n" + head else
                              "deleted" if "\ndeleted file mode" in "\n" + head else "modified")
        return ChangedFile(self.path, status, self.added, self.removed,
                           binary="\nBinary files " in "\n" + head or "GIT binary patch" in head,
                           symlink="mode 120000" in head)


def parse(diff_text: str) -> list[ChangedFile]:
    """`git diff` output (pinned by DIFF_OPTIONS, no renames) as changed files, in one pass."""
    files: list[ChangedFile] = []
    draft: _Draft | None = None
    old = new = old_left = new_left = 0
    for line in diff_text.split("\n"):
        if old_left > 0 or new_left > 0:  # inside a hunk: every line is content
            if line.startswith("+"):
                assert draft is not None
                draft.added[new] = line[1:].rstrip("\r")
                new, new_left = new + 1, new_left - 1
            elif line.startswith("-"):
                assert draft is not None
                draft.removed[old] = line[1:].rstrip("\r")
                old, old_left = old + 1, old_left - 1
            elif line.startswith("\\"):
                pass  # "\ No newline at end of file"
            else:
                old, new, old_left, new_left = old + 1, new + 1, old_left - 1, new_left - 1
            continue
        if line.startswith("diff --git "):
            if draft is not None:
                files.append(draft.done())
            draft = _Draft(_git_line_path(line))
        elif draft is None:
            continue
        elif line.startswith("@@ "):
            m = _HUNK.match(line)
            if m is not None:
                old, new = int(m.group(1)), int(m.group(3))
                old_left = int(m.group(2)) if m.group(2) is not None else 1
                new_left = int(m.group(4)) if m.group(4) is not None else 1
        elif line.startswith(("--- ", "+++ ")):
            path = _header_path(line)
            if path is not None:
                draft.path = path
        else:
            draft.header.append(line)
    if draft is not None:
        files.append(draft.done())
    return files


def changed_files(repo: str, base: str, head: str) -> list[ChangedFile]:
    """Files changed from `base` (a commit) to `head`; `git diff base head`."""
    return parse(git.run(repo, "-c", "core.quotePath=false", "diff", *git.DIFF_OPTIONS,
                         base, head, "--").decode("utf-8", "surrogateescape"))


def staged_files(repo: str, base: str) -> list[ChangedFile]:
    """Files changed from `base` (a commit) to the index; `git diff --cached base`."""
    return parse(git.run(repo, "-c", "core.quotePath=false", "diff", "--cached",
                         *git.DIFF_OPTIONS, base, "--", index=True)
                 .decode("utf-8", "surrogateescape"))
