"""Opening the pull request of a branch that passed (`gate submit --open-pr`)."""
from __future__ import annotations

from gate.errors import GateError
from gate.github.client import Api, ApiError, Pacing
from gate.github.settings import Settings


def require(settings: Settings) -> None:
    """GateError, saying what to set, unless a pull request can be opened."""
    if not settings.can_post:
        raise GateError("--open-pr needs a token and a repository: set GITHUB_TOKEN (or "
                        "GATE_GITHUB_TOKEN) and GITHUB_REPOSITORY=owner/name, or submit "
                        "without --open-pr")


def open_pull_request(settings: Settings, branch: str, base: str, title: str, body: str,
                      pacing: Pacing | None = None) -> str:
    """The new pull request's page; GateError with what to do when GitHub refuses."""
    require(settings)
    try:
        _, url = Api(settings, pacing).create_pull(branch, base, title, body)
    except ApiError as e:
        raise GateError(f"opening the pull request of {branch} into {base} failed: {e}; "
                        "check the token's pull-request permission, or open it by hand") from e
    return url
