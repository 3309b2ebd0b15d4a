"""The change between two refs, parsed once with unidiff: which files, which lines were added."""
from __future__ import annotations

import dataclasses
from typing import Literal

from unidiff.patch import PatchSet

from gate import git

FileStatus = Literal["added", "modified", "deleted"]


@dataclasses.dataclass(frozen=True)
class ChangedFile:
    path: str
    status: FileStatus
    added: dict[int, str]  # head line number -> text, without the newline
    removed: dict[int, str]  # base line number -> text
    binary: bool = False
    symlink: bool = False


def parse(diff_text: str) -> list[ChangedFile]:
    files = []
    for patched in PatchSet(diff_text):
        if patched.is_added_file:
            status: FileStatus = "added"
        elif patched.is_removed_file:
            status = "deleted"
        else:
            status = "modified"
        added: dict[int, str] = {}
        removed: dict[int, str] = {}
        for hunk in patched:
            for line in hunk:
                if line.is_added and line.target_line_no is not None:
                    added[line.target_line_no] = line.value.rstrip("\r\n")
                elif line.is_removed and line.source_line_no is not None:
                    removed[line.source_line_no] = line.value.rstrip("\r\n")
        header = str(patched.patch_info)
        files.append(
            ChangedFile(
                path=patched.path,
                status=status,
                added=added,
                removed=removed,
                binary=bool(patched.is_binary_file),
                symlink="mode 120000" in header,
            )
        )
    return files


def changed_files(repo: str, base: str, head: str) -> list[ChangedFile]:
    """Files changed from `base` (a commit) to `head`; `git diff base head`."""
    return parse(git.run(repo, "-c", "core.quotePath=false", "diff", *git.DIFF_OPTIONS,
                         base, head, "--").decode("utf-8", "surrogateescape"))
