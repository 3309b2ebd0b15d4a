"""The evidence the head's runs sent (the runtime part of `harness`, beside `fingerprint`):
outcomes that reach the gate as the tests run, on a channel it holds, and what the process
left in files, printed and exited with must agree with them (`gate/outcomes/evidence.py`).
A report rewritten after the session, a session that never sent its end, a line that does
not read, a message sent twice or after its session ended: each is tampering with the
evidence, not "says nothing". A kind of problem the base's own run had too is the runner's
or the machine's, not the change's, and is left out."""
from __future__ import annotations

from collections.abc import Sequence

from gate.models import Finding
from gate.outcomes.record import Counts

RULE = "evidence-tampered"
FALLBACK = "pyproject.toml"
GO_MOD = "go.mod"  # where a Go run's problems are pinned


def kind(problem: str) -> str:
    return problem.split(":", 1)[0]


def compare(base: Counts | None, head: Sequence[Counts | None]) -> list[Finding]:
    """A finding for each problem of the head's evidence whose kind the base's run had not."""
    known = {kind(p) for p in base.evidence} if base is not None else set()
    found: dict[str, str] = {}
    for counts in head:
        for problem in counts.evidence if counts is not None else ():
            if kind(problem) not in known:
                found.setdefault(problem, GO_MOD if counts is not None and (
                    counts.runner == "go test") else FALLBACK)
    return [Finding(path, 1, RULE,
                    f"the test run's evidence was tampered with ({problem}): the outcomes "
                    "the gate reports are the ones sent as the tests ran, and something in "
                    "the change rewrote, cut or forged what the run said about itself", "error")
            for problem, path in found.items()]
