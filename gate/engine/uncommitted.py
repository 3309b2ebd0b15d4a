"""A notice when the working tree holds changes the run does not judge: the gate judges
commits (`--head`, default HEAD), never the working tree, so an edit not yet committed is
said once, before the run, rather than passed over silently."""
from __future__ import annotations

from gate.vcs import git


def notice(repo: str, head: str) -> str:
    """'' when the working tree's tracked files match HEAD, or when the head judged is not
    HEAD; else what is left out and what to do."""
    if head != "HEAD":
        return ""
    out = git.run(repo, "status", "--porcelain=v1", "-z", "--untracked-files=no",
                  "--ignore-submodules", check=False)
    changed = [e for e in out.split(b"\0") if e]
    if not changed:
        return ""
    first = changed[0][3:].decode("utf-8", "replace")
    more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
    return (f"{len(changed)} uncommitted change(s) ({first}{more}) are not judged: the gate "
            "judges commits. Commit them first, or judge the staged ones with "
            "`gate scan --staged`")
