"""From check results to pass / needs-review / fail (DESIGN.md, "Verdict and exit codes")."""
from __future__ import annotations

from collections.abc import Collection, Iterable

from gate.models import CheckResult, Verdict

EXIT_CODES: dict[Verdict, int] = {"pass": 0, "fail": 1, "needs-review": 3}
EXIT_CANNOT_JUDGE = 2
EXIT_QUICK_PASS = 4  # `gate run --quick` passed: not the gate's pass (0), which it is not


def exit_code(verdict: Verdict, *, quick: bool = False) -> int:
    """The exit code of a verdict; of a quick check's, 4 for its pass."""
    return EXIT_QUICK_PASS if quick and verdict == "pass" else EXIT_CODES[verdict]


def decide(checks: Iterable[CheckResult], *, strict: bool = False,
           advisory: Collection[str] = ()) -> Verdict:
    """`advisory`: the ids of optional user checks, reported and never counted."""
    needs_review = False
    for check in checks:
        if check.id in advisory:
            continue
        if check.required and check.status in ("failed", "timeout", "error"):
            return "fail"
        if check.status in ("failed", "timeout", "error") or any(
            f.severity != "notice" for f in check.findings
        ):
            needs_review = True
    if needs_review:
        return "fail" if strict else "needs-review"
    return "pass"
