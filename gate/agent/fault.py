"""Whose fault a result is: the change's, or the machine's (`infrastructure`: the network, a
missing command, the gate could not judge). An agent is never told to change code for the
machine's fault."""
from __future__ import annotations

import re
from typing import Literal

from gate.checks import install
from gate.models import CheckResult, Report
from gate.outcomes.baseline import PRE_EXISTING, REGRESSION

Fault = Literal["change", "infrastructure"]

# What installers (pip, uv, npm, cargo, go, curl) print when the network, not the project,
# failed. A dependency that does not exist ("No matching distribution") is the change's.
NETWORK = re.compile(
    r"Temporary failure in name resolution|Name or service not known|Network is unreachable"
    r"|Failed to establish a new connection|Could not resolve host|getaddrinfo|EAI_AGAIN"
    r"|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection reset by peer|Connection refused"
    r"|tcp connect error|error sending request for url|dns error|failed to lookup address",
    re.IGNORECASE)


def _fails_at_base_too(check: CheckResult) -> bool:
    """The baseline (gate/outcomes/baseline.py) found this failure on the base as well, and
    no regression beside it."""
    _, _, baseline = check.summary.partition("; baseline: ")
    return bool(baseline) and REGRESSION not in baseline and (
        PRE_EXISTING in baseline or "the base does not install either" in baseline)


def infrastructure(report: Report) -> str | None:
    """Why the report says nothing about the change, or None when it does: the install could
    not run its command (not found) or failed on the network, or every failure that decided
    the verdict happens on the base too (the project's setup, not this change)."""
    for check in report.checks:
        if check.id != install.ID:
            continue
        if check.status == "error":
            return f"the install could not run: {check.summary}"
        if check.status in ("failed", "timeout"):
            found = NETWORK.search(check.detail)
            if found:
                return (f"the install failed on the network (`{found.group(0)}` in its "
                        f"output): {check.summary}")
    deciding = [c for c in report.checks
                if c.required and c.status in ("failed", "timeout", "error")]
    if deciding and all(_fails_at_base_too(c) for c in deciding):
        return ("every failure that decided the verdict happens on the base too ("
                + "; ".join(f"{c.id}: {c.summary}" for c in deciding)
                + "): the project's install or test setup is broken at the base")
    return None
