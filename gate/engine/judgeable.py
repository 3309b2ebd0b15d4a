"""Whether a report says anything about the change: what the gate cannot judge (an install
that could not run, a test command not found on the base either, failures that happen the
same way on the base) is never the change's fail. Every front door (`gate run`, `gate
submit`, the hooks, the Action's `gate publish`) asks here and says it in the same words,
with exit 2."""
from __future__ import annotations

import re

from gate.checks import install
from gate.engine.verdict import EXIT_CANNOT_JUDGE, exit_code
from gate.models import CheckResult, Report
from gate.outcomes.baseline import PRE_EXISTING, REGRESSION

# What installers (pip, uv, npm, cargo, go, curl) print when the network, not the project,
# failed. A dependency that does not exist ("No matching distribution") is the change's.
NETWORK = re.compile(
    r"Temporary failure in name resolution|Name or service not known|Network is unreachable"
    r"|Failed to establish a new connection|Could not resolve host|getaddrinfo|EAI_AGAIN"
    r"|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection reset by peer|Connection refused"
    r"|tcp connect error|error sending request for url|dns error|failed to lookup address",
    re.IGNORECASE)
SET_INSTALL = ("set `install` in [tool.gate] (or .gate.toml) on the base branch to the command "
               "the project's CI installs with (or pass --install)")
SET_COMMANDS = ("set `install` and `test` in [tool.gate] (or .gate.toml) on the base branch to "
                "the commands the project's CI runs (or pass --install and --test), or fix the "
                "base")


def _fails_at_base_too(check: CheckResult) -> bool:
    """The baseline (gate/outcomes/baseline.py) found this failure on the base as well, and
    no regression beside it. A base that does not install is the same failure only for the
    install: a head whose install works and whose suite fails failed in another way."""
    _, _, baseline = check.summary.partition("; baseline: ")
    return bool(baseline) and REGRESSION not in baseline and (
        PRE_EXISTING in baseline or (check.id == install.ID
                                     and "the base does not install either" in baseline))


def why_not(report: Report) -> str | None:
    """Why the report says nothing about the change, with what to set, or None when it does:
    the install could not run its command (not found) or failed on the network, or every
    failure that decided the verdict happens on the base too (a test command not found there
    as well, say: the project's setup, not this change)."""
    for check in report.checks:
        if check.id != install.ID:
            continue
        if check.status == "error":
            return f"the install could not run: {check.summary}: {SET_INSTALL}"
        if check.status in ("failed", "timeout"):
            found = NETWORK.search(check.detail)
            if found:
                return (f"the install failed on the network (`{found.group(0)}` in its "
                        f"output): {check.summary}: run the gate again")
    deciding = [c for c in report.checks
                if c.required and c.status in ("failed", "timeout", "error")]
    if deciding and all(_fails_at_base_too(c) for c in deciding):
        return ("every failure that decided the verdict happens on the base too ("
                + "; ".join(f"{c.id}: {c.summary}" for c in deciding)
                + f"): the project's install or test setup is broken at the base: {SET_COMMANDS}")
    return None


def said(why: str) -> str:
    """The line every front door prints for it."""
    return f"gate: could not judge this change (exit 2, not the change's fail): {why}"


def exit_for(report: Report, *, quick: bool = False) -> int:
    """2 where the gate could not judge, else the verdict's exit code."""
    return EXIT_CANNOT_JUDGE if why_not(report) is not None else exit_code(report.verdict,
                                                                           quick=quick)
