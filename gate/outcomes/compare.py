"""Every test that passed at base must pass at head: the base's outcomes against the head's
first suite run. A test that passed at base and does not run at head (not collected,
deselected, renamed out of discovery) is a `tests-removed` finding at its base location; one
that passed at base and is skipped or xfailed at head is a `skip-markers` finding at its head
location, and a new test the head skipped (its conditional skip held here) is one too, with its
reason. Tests keep their identity by name, and across moves and parametrisation by the
looser names of `identity.py`. A test that the head did not collect because its module did not
import is the suite's failure (its finding names the import error), not a removal.

Only runners that report every test (pytest, cargo test, go test -v, node:test, nextest with
every status line, and Jest, Vitest, Mocha and unittest through the gate's preloads, when their
report agrees with the summary) can name what no longer runs; for the others the suite's
summary says how many ran at base. Jest, Vitest and Mocha name a test without its file: there a
test is its file and name."""
from __future__ import annotations

import dataclasses

from gate.engine.context import DiffContext
from gate.lang import testdefs
from gate.models import CheckResult, Finding
from gate.outcomes import identity, junit
from gate.outcomes.record import CaseResult, Counts
from gate.vcs import git

NOT_RUN = "not-run-at-head"
SKIPPED = "skipped-at-head"


@dataclasses.dataclass(frozen=True)
class Comparison:
    not_run: tuple[Finding, ...] = ()  # for tests-removed
    skipped: tuple[Finding, ...] = ()  # for skip-markers
    note: str = ""  # for the suite's summary: " (base 290: 130 no longer run)"


def _place(case: CaseResult) -> tuple[str, int, str]:
    return case.file or "", case.line or 0, case.name


def _by_name(counts: Counts) -> dict[identity.Key, CaseResult]:
    """One case per identity (the name, and the file where the name does not say it); a
    passing one wins (a name the runner printed twice)."""
    out: dict[identity.Key, CaseResult] = {}
    for case in counts.cases:
        key = identity.key(counts.runner, case)
        if key not in out or case.outcome == "passed":
            out[key] = case
    return out


def _why_not_run(ctx: DiffContext, case: CaseResult, renamed: dict[str, str]) -> str:
    if case.file is None:
        return "it is not collected at head"
    if case.file in renamed:
        return f"its file {case.file} was renamed to {renamed[case.file]}, out of discovery"
    if ctx.text(ctx.head, case.file) is None:
        return f"its file {case.file} is gone at head"
    return ("its file is still there: deselected by config (a conftest, a cfg attribute, a "
            "filter), or its definition moved where the runner does not look")


def _pinned(ctx: DiffContext, ref: str, case: CaseResult) -> CaseResult:
    """A case the runner gave no file (node:test's passing tests) pinned to its definition
    in a changed test file at `ref`, where one has its name; one with a file and no line
    (Jest, Vitest, Mocha; cargo's `tests::name`) to its definition in that file (its title,
    under its describes; its function, under its modules), or in a changed file where that
    file has none (cargo names a unit test by its crate's root, not by the module's file)."""
    if case.line is not None:
        return case
    changed = [f.path for f in ctx.files if f.path != case.file and (
        case.file is not None or ctx.is_test_file(f.path))]
    paths = [case.file, *changed] if case.file is not None else changed
    for path, text in ctx.read(ref, paths).items():
        if text is None:
            continue
        defs = testdefs.extract(path, text.decode("utf-8", "replace")).defs
        found = next((d for d in defs if d.name == case.name), None) or next(
            (d for d in defs if case.file is not None
             and case.name.endswith((" > " + d.name, "::" + d.name))), None)
        if found is not None:
            return dataclasses.replace(case, file=path, line=found.line)
    return case


def _not_run(ctx: DiffContext, gone: list[CaseResult]) -> list[Finding]:
    renamed = git.renames(ctx.repo, ctx.base, ctx.head) if gone else {}
    gone = [_pinned(ctx, ctx.base, case) for case in gone]
    return [Finding(case.file or ".", case.line or 1, NOT_RUN,
                    f"`{case.name}` passed at base and does not run at head: "
                    f"{_why_not_run(ctx, case, renamed)}", severity="error")
            for case in gone]


def _skipped(ctx: DiffContext, cases: list[CaseResult]) -> list[Finding]:
    out = []
    for case in (_pinned(ctx, ctx.head, c) for c in cases):
        why = f" ({case.message.splitlines()[0][:200]})" if case.message.strip() else ""
        out.append(Finding(case.file or ".", case.line or 1, SKIPPED,
                           f"`{case.name}` passed at base and is skipped or xfailed at head, "
                           f"at run time{why}", severity="error"))
    return out


def _new_skipped(ctx: DiffContext, cases: list[CaseResult]) -> list[Finding]:
    """New tests the head's runs skipped: a conditional skip (a missing module, platform or
    service) that held here, said with what was missing."""
    out = []
    for case in (_pinned(ctx, ctx.head, c) for c in cases):
        why = case.message.splitlines()[0][:200] if case.message.strip() else "no reason given"
        out.append(Finding(case.file or ".", case.line or 1, SKIPPED,
                           f"`{case.name}` is new and was skipped in the head's runs ({why}): "
                           "it has not run once", severity="error"))
    return out


def _not_collected(head: Counts, gone: list[CaseResult]) -> tuple[list[CaseResult], str]:
    """Of the tests `gone`, those the head did not collect because a module did not import
    (in that module's file; every one where the session stopped at the error), and a note
    for the suite's summary: these are the suite's failure, not removals."""
    errors = [c for c in head.cases if c.outcome == "failed" and junit.not_collected(c)]
    if not errors:
        return gone, ""
    stopped = head.passed == 0 and head.skipped == 0 and head.failed == len(errors)
    files = {c.file for c in errors}
    kept = [c for c in gone if not stopped and c.file not in files]
    lost = len(gone) - len(kept)
    why = errors[0].message.splitlines()[0][:200].removeprefix(junit.NOT_COLLECTED)
    return kept, f"{lost} not collected: {why}" if lost else ""


def compare(ctx: DiffContext, base: Counts, head: Counts | None) -> Comparison:
    if head is None:
        return Comparison()
    if not (base.complete and head.complete):
        dropped = base.passed - head.passed - head.failed
        note = f" (base {base.ran}: {dropped} no longer run)" if dropped > 0 else ""
        return Comparison(note=note)
    at_base, at_head = _by_name(base), _by_name(head)
    passed = [k for k, c in at_base.items() if c.outcome == "passed"]
    gone, matched = identity.still_running(
        head.runner, (at_base[k] for k in passed if k not in at_head),
        (c for k, c in at_head.items() if k not in at_base))
    gone, uncollected = _not_collected(head, gone)
    gone.sort(key=_place)
    skipped = sorted([at_head[k] for k in passed
                      if k in at_head and at_head[k].outcome == "skipped"] +
                     [cases[0] for cases in matched.values()
                      if all(c.outcome == "skipped" for c in cases)], key=_place)
    continued = {id(c) for cases in matched.values() for c in cases}
    new_skipped = sorted((c for k, c in at_head.items() if k not in at_base
                          and id(c) not in continued and c.outcome == "skipped"), key=_place)
    notes = [*([uncollected] if uncollected else []),
             *([f"{len(gone)} no longer run"] if gone else [])]
    note = f" (base {base.ran}: {'; '.join(notes)})" if notes else ""
    return Comparison(tuple(_not_run(ctx, gone)),
                      tuple(_skipped(ctx, skipped) + _new_skipped(ctx, new_skipped)), note)


def add_findings(result: CheckResult, extra: tuple[Finding, ...], what: str,
                 window: int = 0) -> CheckResult:
    """A diff check's result with `extra` added, but for what it found at the same place
    already (or within `window` lines above: a marker sits above the test it skips)."""
    taken = {(f.path, f.line) for f in result.findings}
    new = [f for f in extra if not any((f.path, f.line - d) in taken for d in range(window + 1))]
    if not new:
        return result
    note = f"{len(new)} {what}"
    summary = note if result.status == "passed" else f"{result.summary}; {note}"
    return dataclasses.replace(result, status="failed", summary=summary,
                               findings=(*result.findings, *new))
