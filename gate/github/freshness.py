"""Commit-bound verdicts: a result is posted only for the commit that is still the PR's head."""
from __future__ import annotations

import dataclasses

from gate.github.client import Api


@dataclasses.dataclass(frozen=True)
class Freshness:
    judged: str
    current: str

    @property
    def stale(self) -> bool:
        return self.judged != self.current

    def note(self) -> str:
        return (f"The branch moved while the gate ran: the result for `{self.judged[:12]}` was "
                f"discarded (the head is now `{self.current[:12]}`). No success was posted; "
                "the run on the new head will judge it.")


def check(api: Api, pr_number: int, judged: str) -> Freshness:
    """Read the PR's head again, through the API, just before posting."""
    return Freshness(judged, api.pull_head_sha(pr_number))
