"""`--shard I/N`: which share of the tests this run takes (1-based)."""
from __future__ import annotations

import dataclasses
import re

from gate.errors import GateError

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclasses.dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"

    @property
    def first(self) -> bool:
        """The shard that also runs what is not split: base-tests, the user checks."""
        return self.index == 1


def parse(text: str) -> Shard:
    match = _SPEC.match(text)
    if match is None:
        raise GateError(f"--shard {text!r}: expected I/N, e.g. 2/4 (shard 2 of 4)")
    index, total = int(match.group(1)), int(match.group(2))
    if total < 1 or not 1 <= index <= total:
        raise GateError(f"--shard {text}: I must be between 1 and N (1-based), N at least 1")
    return Shard(index, total)
