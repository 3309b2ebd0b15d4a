"""The attempt cap of `gate submit`: not the agent's to raise.

The ceiling is fixed by whoever starts `gate mcp --max-attempts N` (the harness), else by
`max-attempts` in the base's config (read from the base, like the rest of the gate's config),
else the default. The agent may ask for less (`--max-attempts`, the MCP tool's
`max_attempts`); asking for more is refused. A change keeps the lowest cap it was ever
submitted under (gate/agent/attempts.py), so nothing raises it once it is reached."""
from __future__ import annotations

import dataclasses

from gate.agent import attempts
from gate.engine import config
from gate.errors import GateError


@dataclasses.dataclass(frozen=True)
class Ceiling:
    value: int
    source: str  # where it comes from, for the message that refuses more


def ceiling(repo: str, base_sha: str, fixed: int | None) -> Ceiling:
    if fixed is not None:
        return Ceiling(fixed, "fixed by whoever started `gate mcp --max-attempts`")
    found = config.load(repo, base_sha)
    if found.max_attempts is not None:
        return Ceiling(found.max_attempts, f"`max-attempts` in {found.source}")
    return Ceiling(attempts.DEFAULT_CAP, "the default")


def allowed(asked: int | None, top: Ceiling, done: attempts.Attempts) -> int:
    """The cap of this attempt: the ceiling, or less if asked; GateError when asked for more."""
    if asked is not None and asked > top.value:
        raise GateError(f"--max-attempts {asked} is more than the cap of {top.value} "
                        f"({top.source}): the cap can be lowered, never raised; drop "
                        "--max-attempts or give a number up to the cap")
    wanted = top.value if asked is None else asked
    return min(wanted, done.cap) if done.cap is not None else wanted
