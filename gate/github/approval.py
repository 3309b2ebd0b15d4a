"""Only a person turns needs-review into a pass: an approving pull-request review of that exact
head SHA, checked by the gate, not taken on trust.

The approver must have write access to the repository (the collaborator permission endpoint:
admin, maintain or write) and be neither the pull request's author, nor one of the agent
accounts named in the Action's `agent-accounts`, nor an app (`name[bot]`). A review counts for
the SHA it was given on (its `commit_id`), so a new push needs a new approval; a later review by
the same person that is not an approval (changes requested, dismissed) takes theirs back. Why a
review and not a check run's requested action or a label: docs/action.md, "Approving a
needs-review".
"""
from __future__ import annotations

import dataclasses

from gate.github.client import Api, Review

WRITE = ("admin", "maintain", "write")
_TAKES_BACK = ("CHANGES_REQUESTED", "DISMISSED")


@dataclasses.dataclass(frozen=True)
class Approval:
    approver: str | None  # the login whose approval holds, None when none does
    refused: tuple[str, ...] = ()  # why each other approval does not count, for the summary


def _latest(reviews: list[Review]) -> dict[str, Review]:
    """Each reviewer's last review that says yes or no (a comment alone says neither)."""
    latest: dict[str, Review] = {}
    for review in reviews:
        if review.state == "APPROVED" or review.state in _TAKES_BACK:
            latest[review.login] = review
    return latest


def find(api: Api, pr: int, sha: str, agents: tuple[str, ...] = ()) -> Approval:
    """The approval of head `sha` of pull request `pr` that the gate accepts, if any."""
    author = api.pull_author(pr)
    barred = {author.lower(), *(a.lower() for a in agents)}
    refused: list[str] = []
    for login, review in sorted(_latest(api.reviews(pr)).items()):
        if review.state != "APPROVED":
            continue
        if review.commit_id != sha:
            refused.append(f"@{login} approved {review.commit_id[:12]}, not this head "
                           f"{sha[:12]}: a new push needs a new approval")
        elif login.lower() == author.lower():
            refused.append(f"@{login} is the pull request's author")
        elif login.lower() in barred:
            refused.append(f"@{login} is an agent's account")
        elif login.lower().endswith("[bot]"):
            refused.append(f"@{login} is an app's account, not a person's")
        elif api.permission(login) not in WRITE:
            refused.append(f"@{login} has no write access to the repository")
        else:
            return Approval(login, tuple(refused))
    return Approval(None, tuple(refused))
