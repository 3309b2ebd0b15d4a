"""Whether a command (a hook's, a script's line) runs the gate: `gate ...`, a path ending in
`/gate`, `python -m gate`, `uvx --from agent-test-gate gate`, `pipx run agent-test-gate`."""
from __future__ import annotations

import re

_GATE = re.compile(
    r"(?:^|[\s;&|()'\"`/=])gate(?:\.exe)?(?=\s|$|[;&|)'\"`])"  # the command, or a path to it
    r"|-m\s+gate\b"
    r"|\bagent-test-gate\b")


def runs_gate(command: str) -> bool:
    return _GATE.search(command) is not None
