"""The mutation operators: one table of data rows per kind of change, read by `apply`.

A row swaps one operator token or literal for another in the languages it names. The kinds
are tried on a line in the order of `KINDS`; the first mutation that still parses is the
line's mutant (at most one per line)."""
from __future__ import annotations

import dataclasses
from typing import Literal

Kind = Literal["branch", "comparison", "boolean", "arithmetic", "constant", "return",
               "statement"]
Family = Literal["python", "js", "go", "rust"]

KINDS: tuple[Kind, ...] = ("branch", "comparison", "boolean", "arithmetic", "constant",
                           "return", "statement")
ALL: frozenset[Family] = frozenset(("python", "js", "go", "rust"))
_C_LIKE: frozenset[Family] = frozenset(("js", "go", "rust"))


@dataclasses.dataclass(frozen=True)
class Swap:
    """`before` becomes `after` (an operator token or a literal) in `families`."""
    kind: Kind
    before: str
    after: str
    families: frozenset[Family] = ALL


SWAPS: tuple[Swap, ...] = (
    Swap("comparison", "<", "<="),
    Swap("comparison", "<=", "<"),
    Swap("comparison", ">", ">="),
    Swap("comparison", ">=", ">"),
    Swap("comparison", "==", "!="),
    Swap("comparison", "!=", "=="),
    Swap("comparison", "===", "!==", frozenset(("js",))),
    Swap("comparison", "!==", "===", frozenset(("js",))),
    Swap("comparison", "is", "is not", frozenset(("python",))),
    Swap("comparison", "is not", "is", frozenset(("python",))),
    Swap("comparison", "in", "not in", frozenset(("python",))),
    Swap("comparison", "not in", "in", frozenset(("python",))),
    Swap("boolean", "and", "or", frozenset(("python",))),
    Swap("boolean", "or", "and", frozenset(("python",))),
    Swap("boolean", "&&", "||", _C_LIKE),
    Swap("boolean", "||", "&&", _C_LIKE),
    Swap("boolean", "??", "&&", frozenset(("js",))),
    Swap("arithmetic", "+", "-"),
    Swap("arithmetic", "-", "+"),
    Swap("arithmetic", "*", "/"),
    Swap("arithmetic", "/", "*"),
    Swap("arithmetic", "//", "*", frozenset(("python",))),
    Swap("arithmetic", "%", "*"),
    Swap("arithmetic", "**", "*", frozenset(("python", "js"))),
    Swap("arithmetic", "<<", ">>"),
    Swap("arithmetic", ">>", "<<"),
    Swap("arithmetic", "&", "|"),
    Swap("arithmetic", "|", "&"),
    Swap("arithmetic", "^", "&"),
    Swap("constant", "True", "False", frozenset(("python",))),
    Swap("constant", "False", "True", frozenset(("python",))),
    Swap("constant", "true", "false", _C_LIKE),
    Swap("constant", "false", "true", _C_LIKE),
)

# An `if` whose condition always holds: the branch taken for every input. First on a line,
# since it survives exactly when no test takes the other way (an input special-cased for the
# tests: `if (a, b) == (2, 3): return 5`).
TRUE: dict[Family, str] = {"python": "True", "js": "true", "go": "true", "rust": "true"}

# A returned value replaced by the language's empty value (Go and Rust returns are typed:
# no value fits every function, so they get none).
RETURNS: dict[Family, str] = {"python": "None", "js": "undefined"}

# A removed statement: what takes the place of an expression statement (a call).
REMOVED: dict[Family, str] = {"python": "pass", "js": ";", "rust": ";"}


def swap(kind: Kind, family: Family, token: str) -> str | None:
    """What `token` becomes under `kind` in `family`; None when no row swaps it."""
    return next((s.after for s in SWAPS
                 if s.kind == kind and s.before == token and family in s.families), None)


def bumped(number: str) -> str | None:
    """A decimal integer literal plus one (`0` -> `1`); None for any other literal."""
    digits = number.replace("_", "")
    return str(int(digits) + 1) if digits.isdigit() else None
