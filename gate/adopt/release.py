"""Where this version of the gate is published: the distribution `pip install` names, and
what `gate init` pins the hooks and the Action to. A release tags the repository `v<version>`
(the tag pre-commit's `rev:` names) and sets `ACTION_COMMIT` to the commit of that tag, so that
the workflow `gate init` writes pins the Action by SHA, with the tag in a comment."""
from __future__ import annotations

from gate import __version__

# `gate` on the package index is another project: ours is `agent-test-gate` (import and
# command stay `gate`).
DISTRIBUTION = "agent-test-gate"
REPOSITORY = "https://github.com/OWNER/gate"  # the lead sets the real owner at the first release
ACTION = "OWNER/gate"
TAG = f"v{__version__}"
# The commit the tag `TAG` points at: set at each release, with TAG (a placeholder until the
# first one). zizmor's unpinned-uses audit wants a SHA, not a tag that can be moved.
ACTION_COMMIT = "0" * 40


def released() -> bool:
    """Whether this version has been published (its commit is set): before, the Action and
    hook lines `gate init` writes name a repository and commit that do not exist yet."""
    return ACTION_COMMIT != "0" * 40


def placeholders(text: str) -> list[tuple[int, str]]:
    """(line number, what to put there) for each line of `text` that names this version's
    unpublished repository, commit or tag; none once it is released."""
    if released():
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if REPOSITORY in line:
            found.append((number, "the URL of the gate's repository you use (your fork), or "
                                  "replace the entry with the README's `repo: local` hooks"))
        elif ACTION in line or ACTION_COMMIT in line:
            found.append((number, "the repository and commit of the gate your workflow uses "
                                  "(your fork, or a copy in the repository: uses: ./path)"))
        elif line.strip() == f"rev: {TAG}":
            found.append((number, "a tag or commit of that repository"))
    return found
