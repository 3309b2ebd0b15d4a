"""What a user check is for: `lint`, `typecheck`, `build` or `other`. The `kind` key of its
`[[tool.gate.checks]]` table, else read from its command. `gate run --quick` runs checks by
kind, and `gate explain KIND` names the checks of one."""
from __future__ import annotations

import re

from gate.engine.config import USER_CHECK_KINDS, UserCheck

KINDS = USER_CHECK_KINDS

# (kind, pattern on the command): the first that matches, as whole words. Data rows.
_RULES: tuple[tuple[str, str], ...] = (
    ("typecheck", r"\bmypy\b|\bpyright\b|\btsc\b[^;&|]*--noEmit\b|\bvue-tsc\b|\bpytype\b"
                  r"|\bcargo\s+check\b|\b(?:npm|pnpm|yarn)\s+(?:run\s+)?type-?check\b"),
    ("lint", r"\bruff\b|\bflake8\b|\beslint\b|\bpylint\b|\bbiome\b|\bclippy\b|\bgolangci-lint\b"
             r"|\bstylelint\b|\brubocop\b|\bgo\s+vet\b|\b(?:npm|pnpm|yarn)\s+(?:run\s+)?lint\b"),
    ("build", r"\bpython3?\s+-m\s+build\b|\b(?:npm|pnpm|yarn)\s+(?:run\s+)?build\b"
              r"|\bcargo\s+build\b|\bgo\s+build\b|\btsc\b(?![^;&|]*--noEmit)|\bvite\s+build\b"),
)

EXPLANATIONS = {
    "lint": "a lint user check: a linter over the code (ruff, flake8, eslint, pylint...)",
    "typecheck": "a type check user check (mypy, pyright, `tsc --noEmit`...)",
    "build": "a build user check (`python -m build`, `npm run build`, `cargo build`...)",
    "other": "a user check that is neither a lint, a type check nor a build",
}


def infer(command: str) -> str:
    """The kind a command reads as; `other` when none does."""
    for kind, pattern in _RULES:
        if re.search(pattern, command):
            return kind
    return "other"


def kind_of(check: UserCheck) -> str:
    """The check's `kind`, as configured, else as its command reads."""
    return check.kind or infer(check.run)


def explain(kind: str, checks: tuple[UserCheck, ...]) -> str:
    """What `gate explain KIND` prints: the kind, and the repository's checks of it."""
    mine = [c for c in checks if kind_of(c) == kind]
    named = "\n".join(f"  - {c.name}: `{c.run}`" + ("" if c.kind else " (kind read from its "
                                                     "command)") for c in mine)
    quick = {"lint": "`gate run --quick` runs it on every change.",
             "typecheck": "`gate run --quick` runs it on every change.",
             "build": "`gate run --quick` runs it when the change is not a bug fix (code and "
                      "a test): then it runs the tests instead.",
             "other": "`gate run --quick` does not run it; `gate run` does."}[kind]
    where = (f"The checks of this kind here:\n{named}" if mine else
             "No user check of this kind is configured here.")
    return (f"{kind}: {EXPLANATIONS[kind]}\n\nA user check's kind is the `kind` key of its "
            "[[tool.gate.checks]] table (\"lint\", \"typecheck\", \"build\" or \"other\"), "
            f"else read from its command. {quick}\n\n{where}\n")
