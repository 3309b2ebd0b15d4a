"""Calls with nothing to test: logging and printing, by the called name, in every language."""
from __future__ import annotations

import re

_LOGGING = re.compile(
    r"^(?:print|pprint|console\.\w+|logging\.\w+|(?:self\.|this\.)?_?log(?:ger)?\.\w+"
    r"|warnings\.warn|fmt\.(?:Print|Fprint|Eprint)\w*|log\.\w+|t\.Log\w*|debug|info|warn)$")


def is_logging(called: str) -> bool:
    """Whether a call of `called` (the callee's source text) only logs or prints."""
    return _LOGGING.match("".join(called.split())) is not None
