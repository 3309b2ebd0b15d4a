"""The one error type for problems the user can fix; the CLI turns it into exit 2."""
from __future__ import annotations


class GateError(RuntimeError):
    """The gate cannot judge: the message says what is wrong and what to do."""
