"""Which runners' outcomes come from a witness of the gate's own (a channel it opened before
the tests started, written by its plugin or preload inside the runner: `evidence.py`,
`node_witness.py`, Go's overlaid `testing`: `runners/go_witness.py`, which says itself where
its witness sent nothing), and which only from what the judged command printed. The suite's
summary says so for the second kind (docs/how-it-works.md has the table)."""
from __future__ import annotations

from gate.outcomes.record import Counts

WITNESSED = frozenset({"pytest", "jest", "vitest", "mocha", "go test"})


def note(counts: Counts | None) -> str:
    """What the suite's summary adds where no witness of the gate's decided the outcomes."""
    if counts is None:
        return ""
    if counts.runner not in WITNESSED:
        return f"; outcomes as {counts.runner} printed them (no witness of the gate's own)"
    if any(e.startswith("missing:") for e in counts.evidence):
        return f"; outcomes as {counts.runner} printed them (the gate's witness sent nothing)"
    return ""
