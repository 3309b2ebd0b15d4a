"""What the judged process sent on the evidence channel while it ran
(`gate/execution/evidence_channel.py`), read: each pytest session's reports, plugins,
fingerprint and end, and what the watcher saw. Then held against what the process left in
files and printed (`reconcile`): the JUnit report must agree with the outcomes as they were
sent, the runner's closing summary line with the categories of the reports, the exit status
with the session's own. Whatever does not agree, does not read, comes twice or comes after
its session's end is tampering with the evidence (a "kind: what" line in `Counts.evidence`),
never "says nothing"; and the outcomes are the ones sent as the tests ran.

The messages (`gate/pytest_plugins/gate_evidence.py` sends them): `open`, `start`, `report`,
`fingerprint`, `plugins`, `end` of a session `s`; `worker-fingerprint` and `worker-plugins`
from an xdist worker; `case` from the unittest preload; `node` from the Node preload
(`node_witness.py`); `go` from Go's witnessed
`testing` (`runners/go_witness.py`); `lines` from `pinned`'s line recorder; `watch`
from any process; `part` for a message too long for one write."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

from gate.outcomes import junit
from gate.outcomes.record import CaseResult, Counts, Outcome, Plugin, Tampering, Watched

SESSION_KINDS = frozenset({"open", "start", "report", "fingerprint", "plugins", "end"})
SHOWN = 5  # tests named in one disagreement


@dataclasses.dataclass
class Session:
    """One pytest session of the judged command, as it was sent."""
    n: int
    opened: bool = False
    reports: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    started: list[str] = dataclasses.field(default_factory=list)
    plugins: tuple[Plugin, ...] | None = None
    tampered: list[Tampering] = dataclasses.field(default_factory=list)
    digest: Any = dataclasses.field(default_factory=hashlib.sha256)
    ended: dict[str, Any] | None = None


@dataclasses.dataclass
class Evidence:
    sessions: dict[int, Session] = dataclasses.field(default_factory=dict)
    watched: list[Watched] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    tampered: list[Tampering] = dataclasses.field(default_factory=list)  # under xdist workers
    plugins: list[Plugin] = dataclasses.field(default_factory=list)  # what xdist workers loaded
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the preloads'
    lines: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the line recorder's
    go: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # Go's testing witness
    node: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the Node preload's

    def running(self) -> str | None:
        """The test a session had started and not reported on: where a run was cut."""
        for session in self.sessions.values():
            reported = {r.get("id") for r in session.reports if r.get("when") == "teardown"}
            left = [t for t in session.started if t not in reported]
            if left:
                return left[-1][:300]
        return None


def _joined(lines: Iterable[bytes], problems: list[str]) -> list[dict[str, Any]]:
    """The messages, parts joined again; a line that does not read is a problem."""
    out: list[dict[str, Any]] = []
    parts: dict[tuple[Any, Any], list[str | None]] = {}
    for raw in lines:
        try:
            message = json.loads(raw)
            if not isinstance(message, dict) or not isinstance(message.get("k"), str):
                raise ValueError("not a message")
        except ValueError:
            problems.append(f"unreadable: a line that is not a message "
                            f"({raw[:60].decode('utf-8', 'replace')!r})")
            continue
        if message["k"] != "part":
            out.append(message)
            continue
        key, i, n = (message.get("p"), message.get("m")), message.get("i"), message.get("n")
        if not (isinstance(i, int) and isinstance(n, int) and 0 <= i < n <= 4096
                and isinstance(message.get("d"), str)):
            problems.append("unreadable: a part of a message that does not read")
            continue
        slots = parts.setdefault(key, [None] * n)
        if len(slots) != n or slots[i] is not None:
            problems.append("repeated: a part of a message sent twice")
            continue
        slots[i] = message["d"]
        if all(s is not None for s in slots):
            del parts[key]
            out.extend(_joined([("".join(s or "" for s in slots)).encode()], problems))
    if parts:
        problems.append("unreadable: a message sent in parts, not all of them")
    return out


def _canonical(message: dict[str, Any]) -> bytes:
    fields = {k: v for k, v in message.items() if k not in ("k", "p", "s")}
    return (str(message["k"]) + ":" + json.dumps(fields, sort_keys=True, separators=(",", ":"),
                                            ensure_ascii=True) + "\n").encode("ascii")


def _plugin(data: Any) -> Plugin:
    def text(value: object) -> str | None:
        return value if isinstance(value, str) else None
    return Plugin(str(data["name"]), text(data.get("file")), text(data.get("dist")))


def _watched(message: dict[str, Any], checkout: str) -> Watched | None:
    file, line = message.get("file"), message.get("line")
    kind, detail = message.get("what"), message.get("detail")
    if not (isinstance(file, str) and isinstance(kind, str) and isinstance(detail, str)):
        return None
    inside = os.path.relpath(os.path.realpath(file), os.path.realpath(checkout))
    if inside.startswith(os.pardir) or os.path.isabs(inside):
        return None
    return Watched(kind, detail[:300], inside.replace(os.sep, "/"),
                   line if isinstance(line, int) and line > 0 else 1)


def _tampering(message: dict[str, Any]) -> Tampering:
    line = message.get("line")
    return Tampering(str(message.get("name")), str(message.get("what")),
                     message["file"] if isinstance(message.get("file"), str) else None,
                     line if isinstance(line, int) else None)


def read(lines: Sequence[bytes], checkout: str) -> Evidence:
    """The channel's lines as sessions and watched events."""
    found = Evidence()
    problems = found.problems
    for message in _joined(lines, problems):
        kind = message["k"]
        if kind == "watch":
            seen = _watched(message, checkout)
            if seen is not None and seen not in found.watched:
                found.watched.append(seen)
            continue
        if kind == "node":
            found.node.append(message)
            continue
        if kind in ("case", "lines", "go"):  # a preload's test; a mutant's line; Go's testing
            fields = {k: v for k, v in message.items() if k not in ("k", "p")}
            {"case": found.records, "lines": found.lines, "go": found.go}[kind].append(fields)
            continue
        if kind == "worker-fingerprint":
            found.tampered.append(_tampering(message))
            continue
        if kind == "worker-plugins":
            try:
                found.plugins.extend(_plugin(p) for p in message["list"])
            except (KeyError, TypeError):
                problems.append("unreadable: a worker's plugin list")
            continue
        if kind not in SESSION_KINDS or not isinstance(message.get("s"), int):
            problems.append(f"unreadable: a message of no known kind ({kind[:30]!r})")
            continue
        n = message["s"]
        session = found.sessions.setdefault(n, Session(n))
        if session.ended is not None:
            problems.append(f"late: a `{kind}` message after session {n} had ended")
            continue
        if kind == "open":
            if session.opened:
                problems.append(f"repeated: session {n} opened twice")
            session.opened = True
        elif kind == "end":
            if session.digest.hexdigest() != message.get("digest"):
                problems.append(f"digest: what session {n} sent is not what its digest "
                                "counts (messages added or lost on the way)")
            session.ended = message
            continue
        elif kind == "start":
            session.started.append(str(message.get("id", "")))
        elif kind == "report":
            session.reports.append(message)
        elif kind == "plugins":
            try:
                session.plugins = tuple(_plugin(p) for p in message["list"])
            except (KeyError, TypeError):
                problems.append(f"unreadable: session {n}'s plugin list")
        elif kind == "fingerprint":
            session.tampered.append(_tampering(message))
        session.digest.update(_canonical(message))
    return found


def _outcome(reports: Sequence[dict[str, Any]]) -> Outcome:
    outcomes = {r.get("outcome") for r in reports}
    return "failed" if "failed" in outcomes else "skipped" if "skipped" in outcomes else "passed"


def _cases(session: Session) -> list[CaseResult]:
    """One case per test, as pytest's JUnit report would name it."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in session.reports:
        by.setdefault(str(r.get("id")), []).append(r)
    out = []
    for reports in by.values():
        if not any(r.get("when") in ("call", "collect") or r.get("outcome") != "passed"
                   for r in reports):
            continue  # set up, never run: the process left in between (as pytest's report)
        first = reports[0]
        outcome = _outcome(reports)
        failing = next((r for r in reports if r.get("outcome") == outcome), first)
        line = first.get("line")
        file = first.get("file") if isinstance(first.get("file"), str) else None
        out.append(junit.case(str(first.get("classname", "")), str(first.get("name", "")),
                              file, str(line) if isinstance(line, int) else None, outcome,
                              str(failing.get("msg") or ""), failing.get("when") == "collect",
                              sum(float(r.get("t") or 0) for r in reports)))
    return out


def _by_name(cases: Iterable[CaseResult]) -> dict[str, Outcome]:
    """Each test's outcome: failed where any of its entries failed (pytest's report gives a
    test failing in its call and its teardown two entries)."""
    out: dict[str, Outcome] = {}
    for case in cases:
        now = out.get(case.name)
        if now != "failed" and (now is None or case.outcome != "passed"):
            out[case.name] = case.outcome
    return out


def _disagreement(reported: dict[str, Outcome], sent: dict[str, Outcome]) -> str:
    wrong = [f"{name} {reported.get(name, 'absent')} in the report, {sent.get(name, 'absent')} "
             "as it ran" for name in sorted(set(reported) | set(sent))
             if reported.get(name) != sent.get(name)]
    more = f" and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
    return "report-rewritten: " + "; ".join(wrong[:SHOWN]) + more


_SUMMARY = re.compile(r"^=*\s*((?:\d+ [a-z]+(?: [a-z]+)?, )*\d+ [a-z]+(?: [a-z]+)?) in "
                      r"[\d.]+s(?: \([\d:.]+\))?\s*=*$")
_CATEGORIES = {"passed": "passed", "failed": "failed", "error": "error", "errors": "error",
               "skipped": "skipped", "xfailed": "xfailed", "xpassed": "xpassed"}


def summary_counts(output: str) -> dict[str, int] | None:
    """The categories of pytest's last closing summary line ("2 failed, 3 passed in 0.12s")."""
    for line in reversed(output.splitlines()[-200:]):
        match = _SUMMARY.match(line.strip())
        if match:
            counts: dict[str, int] = {}
            for item in match.group(1).split(", "):
                number, word = item.split(" ", 1)
                if word in _CATEGORIES:
                    counts[_CATEGORIES[word]] = counts.get(_CATEGORIES[word], 0) + int(number)
            return counts
    return None


def _categories(session: Session) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in session.reports:
        category = _CATEGORIES.get(str(r.get("cat")))
        if category is not None:
            counts[category] = counts.get(category, 0) + 1
    return counts


def reconcile(counts: Counts | None, found: Evidence, *, output: str, returncode: int | None,
              timed_out: bool, pytest_alone: bool) -> Counts | None:
    """`counts` (read from the report files and the output) held against what was sent.
    Where they agree nothing changes; where the report files do not, the outcomes sent win
    and the disagreement is said; and every problem of the evidence is said."""
    problems = list(found.problems)
    sessions = [s for _, s in sorted(found.sessions.items()) if s.opened]
    if len(sessions) < len(found.sessions):
        problems.append("unreadable: messages of a session that never opened")
    if not sessions:
        if pytest_alone and returncode == 0 and counts is not None and counts.runner == "pytest":
            problems.append("missing: pytest ran and passed, and the gate's session plugin "
                            "sent nothing (kept from loading, or its channel closed)")
        return _with(counts, problems, found) if counts is not None else None
    cut = timed_out or returncode is None or returncode < 0
    for s in sessions:
        if s.ended is None and returncode == 0 and not timed_out:  # cut short, claiming success
            problems.append(f"end-missing: session {s.n} never sent its end and the command "
                            "exited 0 (the process left before pytest finished: os._exit, or "
                            "its channel closed)")
    sent = [case for s in sessions for case in _cases(s)]
    plugins = None if any(s.plugins is None for s in sessions) else tuple(
        {p.name: p for p in [*(p for s in sessions for p in s.plugins or ()),
                             *found.plugins]}.values())
    tampered = tuple({t.name: t for t in [*(t for s in sessions for t in s.tampered),
                                          *found.tampered]}.values())
    if counts is None or counts.runner != "pytest":
        if cut or not sent:
            return _with(counts, problems, found) if counts is not None else None
        if counts is not None:
            problems.append(f"report-rewritten: the runner's report was not pytest's "
                            f"({counts.runner}) where pytest sent its outcomes")
        counts = _from(sent)
    elif _by_name(counts.cases) != _by_name(sent) and not cut:
        problems.append(_disagreement(_by_name(counts.cases), _by_name(sent)))
        counts = _from(sent)
    if len(sessions) == 1 and not cut:
        problems.extend(_witnesses(sessions[0], output, returncode, pytest_alone))
    counts = dataclasses.replace(counts, plugins=plugins, tampered=tampered)
    return _with(counts, problems, found)


def _witnesses(session: Session, output: str, returncode: int | None,
               pytest_alone: bool) -> list[str]:
    """The runner's own closing line and exit status against what the session sent."""
    out = []
    printed = summary_counts(output)
    sent = _categories(session)
    if printed is not None and printed != sent:
        out.append(f"summary-disagrees: pytest printed {_say(printed)}, its reports as sent "
                   f"were {_say(sent)}")
    status = session.ended.get("exit") if session.ended else None
    if pytest_alone and isinstance(status, int) and returncode != status:
        out.append(f"exit-disagrees: the session ended with exit status {status}, the "
                   f"process exited {returncode}")
    return out


def _say(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "nothing"


def _from(cases: Sequence[CaseResult]) -> Counts:
    return Counts("pytest", passed=sum(c.outcome == "passed" for c in cases),
                  failed=sum(c.outcome == "failed" for c in cases),
                  skipped=sum(c.outcome == "skipped" for c in cases), cases=tuple(cases))


def _with(counts: Counts, problems: Sequence[str], found: Evidence) -> Counts:
    return dataclasses.replace(counts, evidence=tuple(dict.fromkeys(problems)),
                               watched=tuple(found.watched))
