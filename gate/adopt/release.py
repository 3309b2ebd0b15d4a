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
