"""One mutant: a span of one file's bytes replaced, and how the report shows it."""
from __future__ import annotations

import dataclasses

from gate.mutants.operators import Kind


@dataclasses.dataclass(frozen=True)
class Mutant:
    path: str
    line: int  # 1-based, where the mutated token starts
    kind: Kind
    start: int  # byte offsets of the replaced span in the file
    end: int
    replacement: bytes
    before: str  # what is shown: the expression (or token) before and after
    after: str

    def applied(self, text: bytes) -> bytes:
        return text[:self.start] + self.replacement + text[self.end:]

    @property
    def shown(self) -> str:
        return f"`{self.before}` → `{self.after}`"


def shown_text(text: bytes, start: int, end: int, limit: int = 60) -> str:
    """A span as one short line (whitespace runs folded)."""
    words = " ".join(text[start:end].decode("utf-8", "replace").split())
    return words if len(words) <= limit else words[:limit - 1] + "…"
