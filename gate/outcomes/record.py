"""What a test run is reduced to: per-test outcomes and the runner's counts."""
from __future__ import annotations

import dataclasses
from typing import Any, Literal

Outcome = Literal["passed", "failed", "skipped"]


@dataclasses.dataclass(frozen=True)
class CaseResult:
    name: str  # as the runner prints it: file::Class::test, "describe > it", tests::name
    file: str | None  # relative to the checkout
    line: int | None  # 1-based: the test's definition
    outcome: Outcome
    message: str = ""
    seconds: float | None = None  # how long it took, where the runner says (shard balancing)


@dataclasses.dataclass(frozen=True)
class Plugin:
    """A pytest plugin a session loaded: its module (or class), its file, its distribution
    (where an entry point registered it)."""
    name: str
    file: str | None = None
    dist: str | None = None


@dataclasses.dataclass(frozen=True)
class Tampering:
    """A part of the test framework that a session found changed (`gate_fingerprint`):
    `replaced` or `removed` while it ran, or `foreign`, code of the checkout in its place."""
    name: str  # _pytest.reports.TestReport.outcome
    what: str  # replaced | removed | foreign
    file: str | None = None  # where the replacement was defined
    line: int | None = None


@dataclasses.dataclass(frozen=True)
class Watched:
    """What code of the checkout did while the tests ran, as the gate's audit hook saw it
    (`gate/preload/python/sitecustomize.py`): `kind` (framework-patched, proc-read,
    conditions-read, gate-file, ctypes, subprocess, frame-read), `detail` (what it touched),
    where (relative to the checkout)."""
    kind: str
    detail: str
    file: str
    line: int


@dataclasses.dataclass(frozen=True)
class Counts:
    runner: str  # a key of gate.outcomes.reading.PARSERS
    passed: int
    failed: int
    skipped: int
    cases: tuple[CaseResult, ...] = ()  # every test, or only the failing ones (complete=False)
    complete: bool = True
    unit: str = "tests"  # "packages" where a runner only reports those
    plugins: tuple[Plugin, ...] | None = None  # pytest: what its sessions loaded (None: unknown)
    tampered: tuple[Tampering, ...] = ()  # pytest: the framework changed under its sessions
    # what was wrong with the evidence the run sent (gate/outcomes/evidence.py): each a
    # "kind: what" line, e.g. "report-rewritten: tests/test_a.py::test_x passed in the report,
    # failed as it ran"
    evidence: tuple[str, ...] = ()
    watched: tuple[Watched, ...] = ()  # what the checkout's code did that the watcher reports
    unwitnessed: str = ""  # where the outcomes are only what the runner printed: why

    @property
    def ran(self) -> int:
        return self.passed + self.failed

    def failures(self) -> list[CaseResult]:
        return [c for c in self.cases if c.outcome == "failed"]

    def describe(self) -> str:
        """"41/41 tests, 2 skipped": what passed of what ran."""
        text = f"{self.passed}/{self.ran} {self.unit}"
        text += f", {self.skipped} skipped" if self.skipped else ""
        return text + (f" ({self.unwitnessed})" if self.unwitnessed else "")


def first_lines(lines: list[str], limit: int = 4) -> str:
    """The first non-blank lines of a failure's text, stripped, joined by newlines."""
    kept = [line.strip() for line in lines if line.strip()]
    return "\n".join(kept[:limit])


def counts_to_json(counts: Counts) -> dict[str, Any]:
    return dataclasses.asdict(counts)


def counts_from_json(data: dict[str, Any]) -> Counts:
    """The counts `counts_to_json` wrote (KeyError, TypeError on anything else)."""
    fields = dict(data)
    cases = tuple(CaseResult(**c) for c in fields.pop("cases"))
    plugins = fields.pop("plugins", None)
    tampered = tuple(Tampering(**t) for t in fields.pop("tampered", ()))
    evidence = tuple(str(e) for e in fields.pop("evidence", ()))
    watched = tuple(Watched(**w) for w in fields.pop("watched", ()))
    return Counts(**fields, cases=cases, tampered=tampered, evidence=evidence, watched=watched,
                  plugins=None if plugins is None else tuple(Plugin(**p) for p in plugins))
