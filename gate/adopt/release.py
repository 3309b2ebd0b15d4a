"""Where this version of the gate is published: what `gate init` pins the hooks and the
Action to. A release tags the repository `v<version>` (the tag pre-commit and `uses:` name)."""
from __future__ import annotations

from gate import __version__

REPOSITORY = "https://github.com/OWNER/gate"  # the lead sets the real owner at the first release
ACTION = "OWNER/gate"
TAG = f"v{__version__}"
