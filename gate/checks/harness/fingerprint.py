"""The framework's fingerprint (the runtime part of `harness`, beside `loaded_plugins`):
the parts of pytest, pluggy, unittest and the builtins that the head's test sessions found
replaced while they ran, or held code of the checkout in place of the framework's (a
script that patched before `pytest.main()`), and the base's run did not. Found by what the
objects are (`gate_fingerprint`), however the change spelt the patch. Each finding is pinned
where the replacement is defined, when that is in the checkout."""
from __future__ import annotations

import os
from collections.abc import Sequence

from gate.models import Finding
from gate.outcomes.record import Counts, Tampering

RULE = "framework-changed-in-run"
CHECK_ID = "harness"
FALLBACK = "pyproject.toml"
WHAT = {"replaced": "was replaced while the tests ran", "removed": "was removed while the "
        "tests ran", "foreign": "is code of the checkout, not the framework's",
        # pytest's registry (`gate_hooks`)
        "claimed": "is implemented by code that claims a file or a line that is not its own "
                   "(compile() takes any file name): tampering",
        "package-hook": "is implemented by code under test, not by a test, a conftest or an "
                        "installed plugin"}


def _where(t: Tampering, checkout: str) -> tuple[str, int, str]:
    """The file and line to pin, and the place to name in the message."""
    if t.file is None:
        return FALLBACK, 1, ""
    inside = os.path.relpath(os.path.realpath(t.file), os.path.realpath(checkout))
    if inside.startswith(os.pardir) or os.path.isabs(inside):
        return FALLBACK, 1, f" (by code in {t.file})"
    rel = inside.replace(os.sep, "/")
    line = t.line or 1
    return rel, line, f" (by {rel}:{line})"


def compare(base: Counts | None, head: Sequence[Counts | None], checkout: str,
            ) -> list[Finding]:
    """A finding for each part of the framework the head's runs found changed and the
    base's did not (everything the head found, when the base's run is unknown)."""
    known = {t.name for t in base.tampered} if base is not None else set()
    found: dict[str, Tampering] = {}
    for counts in head:
        for t in counts.tampered if counts is not None else ():
            if t.name not in known:
                found.setdefault(t.name, t)
    out = []
    for name in sorted(found):
        t = found[name]
        path, line, by = _where(t, checkout)
        out.append(Finding(path, line, RULE,
                           f"`{name}` {WHAT.get(t.what, t.what)}{by}: the framework that "
                           "reports the tests' outcomes was changed, so those outcomes are not "
                           "evidence; the base's run left it as it was", "error"))
    return out
