"""Mode `checks`: the runtime evidence is the other checks on the head SHA, not a run of our own.

Named checks (check runs or commit statuses) must each appear and conclude success; missing,
skipped, neutral, cancelled, timed out or failed do not pass. With no names, the gate waits until
the set of checks it sees stays unchanged for the stabilization window, then judges them all, and
says that it ran unpinned. `clock` and `sleep` are injectable, so tests never wait.
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection, Sequence

from gate.github.client import Api, CheckState
from gate.models import CheckResult

ID = "required-checks"
TITLE = "The other checks on the head succeeded"
TIMEOUT = 1800.0
POLL = 10.0
Clock = Callable[[], float]
Sleep = Callable[[float], None]


@dataclasses.dataclass(frozen=True)
class Waiting:
    """How to wait: tests pass a fake clock and a sleep that moves it."""
    timeout: float = TIMEOUT
    poll: float = POLL
    clock: Clock = time.monotonic
    sleep: Sleep = time.sleep


def done(check: CheckState) -> bool:
    return check.status == "completed" if check.kind == "check run" else check.status != "pending"


def succeeded(check: CheckState) -> bool:
    return done(check) and check.conclusion == "success"


def _seen(api: Api, sha: str, ignore: Collection[str]) -> dict[str, CheckState]:
    return {c.name: c for c in api.checks(sha) if c.name not in ignore}


def _result(status: str, summary: str) -> CheckResult:
    return CheckResult(ID, TITLE, "passed" if status == "passed" else (
        "timeout" if status == "timeout" else "failed"), True, summary)


def _judge(seen: dict[str, CheckState], names: Sequence[str]) -> CheckResult | None:
    bad = [f"{n} ({seen[n].conclusion or seen[n].status})" for n in names
           if n in seen and done(seen[n]) and not succeeded(seen[n])]
    if bad:
        return _result("failed", f"did not succeed: {', '.join(bad)}")
    if all(n in seen and done(seen[n]) for n in names):
        return _result("passed", f"{len(names)} of {len(names)} checks succeeded: "
                                 f"{', '.join(names)}")
    return None


def wait(api: Api, sha: str, names: Sequence[str], *, ignore: Collection[str] = (),
         stabilization: float = 60.0, waiting: Waiting | None = None) -> CheckResult:
    w = waiting or Waiting()
    clock, timeout = w.clock, w.timeout
    start = clock()
    last: frozenset[tuple[str, str, str | None]] | None = None
    stable_since = start
    while True:
        seen = _seen(api, sha, ignore)
        now = clock()
        if names:
            judged = _judge(seen, names)
            if judged is not None:
                return judged
        else:
            key = frozenset((c.name, c.status, c.conclusion) for c in seen.values())
            if key != last:
                last, stable_since = key, now
            elif now - stable_since >= stabilization and all(map(done, seen.values())):
                if not seen:
                    return _result("failed", f"no check ran on {sha[:12]} within "
                                             f"{stabilization:.0f}s")
                judged = _judge(seen, sorted(seen))
                assert judged is not None
                return _result(judged.status, f"unpinned (no required-checks named): "
                                              f"{judged.summary}")
        if now - start >= timeout:
            return _result("timeout", _timed_out(seen, names, sha, timeout))
        w.sleep(w.poll)


def _timed_out(seen: dict[str, CheckState], names: Sequence[str], sha: str,
               timeout: float) -> str:
    missing = [n for n in names if n not in seen]
    if missing:
        return (f"required check(s) never appeared on {sha[:12]} within {timeout:.0f}s: "
                f"{', '.join(missing)}. Check the names against the checks on the commit")
    running = [n for n in (names or sorted(seen)) if n in seen and not done(seen[n])]
    return f"still running after {timeout:.0f}s: {', '.join(running) or 'checks kept changing'}"


def any_appears(api: Api, sha: str, *, ignore: Collection[str] = (), window: float = 60.0,
                waiting: Waiting | None = None) -> bool:
    """Mode `auto`: does any other check appear on `sha` within `window` seconds?"""
    w = waiting or Waiting()
    start = w.clock()
    while not _seen(api, sha, ignore):
        if w.clock() - start >= window:
            return False
        w.sleep(w.poll)
    return True
