"""What the checkout's code did while the tests ran, as the gate's audit hook saw it (the
runtime part of `harness`, beside `fingerprint`): a Python audit hook (PEP 578) that the gate
adds before any code of the checkout runs, and that nothing can remove, reports what a test
seldom needs: the framework's functions changed in place (`__code__`, `__defaults__`),
`/proc/self`, `/proc/1` or the cgroup tree read, the varied run's clock settings
(`/etc/ld.so.preload`, `/etc/faketimerc`) opened or `/dev/shm` listed, the gate's own files
opened, `ctypes` loaded, code compiled under the name of a file that is not there, the
interpreter's objects walked (`gc`); by code under test, attributes of code it did not define
changed and the interpreter hooked (trace, profile, audit hooks), as warnings; and, as
notices, a subprocess started, a caller's frame asked for, the host name read.
What only the head's code did, and the base's code did not (the same kind, the same thing,
in the same file), is a finding at the line that did it."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from gate.models import Finding
from gate.outcomes.node_witness import LOADED
from gate.outcomes.record import Counts, Watched

RULE = "seen-at-run-time"
WHAT = {
    "framework-patched": "changed the test framework's `{detail}` in place while the tests "
                         "ran: the framework that reports the outcomes is not the one installed",
    "proc-read": "read `{detail}` while the tests ran: code that looks at its own process or "
                 "the machine (a namespace, a limit, a cgroup) can tell it is being judged",
    "conditions-read": "looked at `{detail}` while the tests ran, where the varied run's "
                       "clock keeps its settings or its traces; code that reads them can tell "
                       "which run it is in",
    "gate-file": "opened the gate's own `{detail}` while the tests ran",
    "ctypes": "loaded native code through ctypes (`{detail}`) while the tests ran: it can "
              "change what no Python hook sees",
    "subprocess": "started `{detail}` while the tests ran: what it does is not watched",
    "frame-read": "asked for its callers' frames (`{detail}`) while the tests ran: code that "
                  "reads who calls it can tell a test from a user",
    "foreign-changed": "changed `{detail}`, code it did not define, while the tests ran: "
                       "code under test that changes a library changes what its tests judge",
    "unreal-file": "compiled code under the name of a file that is not there (`{detail}`): "
                   "code that claims another file's place can pose as a test or a conftest",
    "gc-walk": "walked the interpreter's objects (`{detail}`) while the tests ran: the way to "
               "reach the test runner's own objects without naming them",
    "tracing": "hooked into the interpreter (`{detail}`) while the tests ran: it sees and can "
               "change every call, the test runner's included",
    "host-read": "read the host name while the tests ran",
}
# What honest code under test does often enough (a tool that runs git, a logging helper that
# finds its caller): a notice for a reviewer, in code under test only (a test that runs the
# CLI is no news), never a verdict.
NOTICES = frozenset({"subprocess", "frame-read", "host-read"})
# What a test does as often as code under test (a test that patches a library, one that
# walks gc for a leak check, a coverage tool): judged in code under test only.
CODE_ONLY = NOTICES | {"foreign-changed", "gc-walk", "tracing"}
WARNINGS = frozenset({"foreign-changed", "tracing"})


def compare(base: Counts | None, head: Sequence[Counts | None],
            is_test: Callable[[str], bool] = lambda path: False) -> list[Finding]:
    """A finding for each thing the head's code did that the base's code did not (of the
    `NOTICES` kinds, only by code under test, not `is_test`)."""
    if base is None:
        return []  # nothing to hold the head's against: its code may do what the base's did
    before = {(w.kind, w.detail, w.file) for w in base.watched}
    found: dict[tuple[str, str, str], Watched] = {}
    for counts in head:
        for w in counts.watched if counts is not None else ():
            if w.kind == LOADED:
                continue  # what the runner loaded: runner_loaded.py
            if (w.kind, w.detail, w.file) not in before and not (
                    w.kind in CODE_ONLY and is_test(w.file)):
                found.setdefault((w.kind, w.detail, w.file), w)
    return [Finding(w.file, w.line, RULE,
                    f"code of the change ({w.file}:{w.line}) "
                    + WHAT.get(w.kind, "{detail}").format(detail=w.detail)
                    + "; the base's code did not",
                    "notice" if w.kind in NOTICES else "warning" if w.kind in WARNINGS
                    else "error")
            for w in found.values()]
