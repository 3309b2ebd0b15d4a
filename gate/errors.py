"""The one error type for problems the user can fix; the CLI turns it into exit 2."""
from __future__ import annotations


class GateError(RuntimeError):
    """The gate cannot judge: the message says what is wrong and what to do."""


class GitError(GateError):
    """A git command failed. Callers that can do without its answer catch this, never every
    GateError."""

    def __init__(self, args: tuple[str, ...], returncode: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)} failed (exit {returncode}): {stderr}")
        self.returncode = returncode
        self.stderr = stderr
