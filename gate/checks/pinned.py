"""pinned: the change is held by tests that can fail (the head's new and changed tests over
the base's code; mutants on the changed lines)."""
from __future__ import annotations

import dataclasses
import os
import re

from gate.checks import common
from gate.engine.context import DiffContext
from gate.execution.run_workspace import Workspace
from gate.lang import testdefs
from gate.models import CheckResult, Finding, Severity, Status
from gate.mutants import lines
from gate.outcomes import junit
from gate.outcomes.testrun import TestRun
from gate.pinned import (
    deletions,
    floor,
    judge,
    limits,
    probe,
    reach,
    runs,
    sides,
    source_reads,
    special_cases,
)
from gate.pinned.runs import MutantRun
from gate.pinned.special_cases import SpecialCase

ID = "pinned"
TITLE = "The change is held by tests that can fail"
EXPLANATION = """\
Two kinds of evidence that the change is tested, not only that the tests pass.

Fail to pass: the head's new and changed test files run over the base's code (the base's
version of every changed non-test source file; the head's test tree, manifests and data).
The tests that fail there, and passed at head, pin the change: the summary names them. When
the change edits code and adds or changes tests, and all of them pass on the base code too,
that is a `passes-at-base` finding at the first changed line: the new tests do not test what
the change does (a test that asserts nothing, or one of behaviour that was already there).

Mutants: at most one per changed line of non-test Python, JavaScript/TypeScript, Go and Rust
code. The first mutation that still parses, in this order: an `if` whose condition always
holds, a comparison (`<` to `<=`, `==` to `!=`), a boolean operator, an arithmetic operator,
a constant (true/false, an integer plus one), a returned value (Python, JavaScript), a removed
call statement. Lines with nothing to test get none: comments, docstrings, strings, imports,
type annotations, logging and print calls, Rust macros. A Python file changed only in its
docstrings and comments is no code change (no mutant, no `passes-at-base`). The lines are
taken file by file in turn (files in path order, lines top to bottom) up to `pinned-mutants`
(default 20). The mutants start no run after `pinned-time` suite runs' worth of wall time
(default 1), counted from their first (the runs over the base's code do not eat it). Whatever
the budget, `pinned` judges: each special case's deleted branch (below) and the first mutant
of each changed function (of each changed file, for lines outside every function) run first,
within a floor of 60 s of wall time (said in the summary when mutants were left out), so a
small suite's budget never leaves a new function with no mutant at all. Each mutant runs as a
trial of its own, side by side (in the sealed boundary the mutated file is in a layer of its
own over the installed checkout, else in a copy of it), with the test files that name its
module (Go: its package; Rust, or none found: the whole command), then the whole command if
those all pass. Each run has its own time limit: 3 times what its tests took in the suite's
first run (with the run's start and collection), at least 10 s: a mutant that hangs costs
that, and is said in the summary ("timed out at its own limit"); and no run goes past the end
of the time budget (or of the floor): it is cut there ("cut at the end of the time budget").

A mutant counts as killed only by a test that ran its line. In a Python mutant's pytest run,
the gate's line recorder (`sys.monitoring` on Python 3.12+, a tracer limited to the mutated
file below) notes which tests ran the mutated statement; a run that failed only in tests that
never ran it (a test that hashes the file, or compares its source) is a survivor ("only tests
that never ran this line failed"). The recorder runs inside the judged process, so its word
only takes kills away, never adds one; where another tracer replaced it (coverage, below
Python 3.12) any failing test kills, as for the other languages. A new or changed test line
that reads the code under test as text (`inspect.getsource`, a function's `__code__`
compared or hashed, `co_code`, `dis`, a module's `__file__` read or hashed) is a
`reads-source` finding at its line: such a test fails for any edit, whatever the code does.

A survivor that every test survives is a `survived-mutant` finding at its line, showing the
mutation. Out of the findings, and said in the summary, are the survivors no test could run
or tell apart here:
- in a Python file no test loads here (below);
- whose statement no test ran, behind a check of the Python version or the platform
  (`sys.version_info`, `sys.platform`, `os.name`, `platform.*`, `sys.implementation`), at
  any depth, where the `if` is that check and nothing else (`not`, `and`, `or` of such
  checks only): `if sys.platform != "win32" and x > hi` excuses nothing;
- whose statement no test ran, behind an `if` on a name an optional import binds (`try:
  import x` / `except ImportError: x = None`), where that import fails here (its `except`
  ran);
- shown equivalent: an `if` with no `else` whose body changes nothing when its condition is
  false (`if a in s: s = s.replace(a, b)`; `if x != v: x = v`).
The summary says how many were killed and what was left out.

Where a Python file's mutants survive, or the new tests pass on the base code, the gate asks
whether any test loads the changed file at all: the file replaced by one that fails when it is
loaded, run like a mutant. If every test survives that too, no test loads the file here (code
for another Python version, `if sys.version_info < (3, 11)`): its survivors, and the new tests
passing on the base code, are said in the summary, not as findings. An `if` that asks which
Python or platform runs it, and nothing else, gets no mutant.

Special cases: a changed line of code that branches on, or returns for, exactly the input a
test passes is a `special-cased-input` finding at that line. Exactly the input: a test call's
whole argument tuple (the call names the line's function, and every argument is compared,
as a tuple or a conjunction: `(a, b) == (2, 3)`, `a === 2 && b === 3`), or a compound value
a test passes (a list, tuple, set or map of two values or more, not all edge values; a
string of several words), compared by value (`[5, 9, 2, 1, 5, 3]` in code is the tuple a
parametrized test passes). Read from `if` conditions (`or` as alternatives, `in` a literal
list), conditional expressions, `match`/`switch` cases, lookups in a literal table, in
Python, JavaScript/TypeScript, Go and Rust; the tests' inputs from the head's test files
(literal arguments, names bound to literals, `parametrize` rows, table rows, Rust's assert
macros). Not a finding: a single scalar compared with a constant (`if code == 404`), edge
values (0, 1, -1, None, empty, true, false), and an expression compared with several values
some of which no test passes (a table of constants). The message says whether the branch
returns before a general path; the line's mutant deletes the branch (`if C` → `if False`),
and the tests that then fail are named: they pass only through the special case. Where every
test survives the deletion, the general path gives that input the same answer: a fast path,
no finding (said in the summary), unless another special case singles out the same input.

`pinned = "report"` (the default) shows the findings and leaves the verdict as it is;
`"review"` (what `gate init` writes) makes them needs-review; `"off"` skips the check.

Resolve: add a test that fails without the change, or that the mutant would fail (for a
survivor: a test of the input where the mutated code gives another answer). A survivor that
cannot change any answer (an equivalent mutant) is a person's to approve on the pull request."""


@dataclasses.dataclass(frozen=True)
class Budget:
    mutants: int = 20
    seconds: float = 60.0  # pinned's wall time: `pinned-time` suite runs
    limits: runs.Limits = dataclasses.field(  # each run's own
        default_factory=lambda: runs.Limits(lambda tests: 300.0, 300.0))
    workers: int = 1

    @property
    def run_timeout(self) -> float:
        """A run of the whole command: the head's tests over the base's code, a probe."""
        return self.limits.whole


def _names(names: list[str], limit: int = 3) -> str:
    return common.listed(names, limit)


def _new_tests(ctx: DiffContext, paths: list[str]) -> set[tuple[str, str]]:
    """(file, dotted name) of each test definition the head adds to `paths`."""
    out = set()
    for path in paths:
        old = ctx.text(ctx.base, path)
        before = {d.name for d in testdefs.extract(path, old).defs} if old else set()
        new = ctx.text(ctx.head, path) or ""
        out |= {(path, d.name) for d in testdefs.extract(path, new).defs
                if d.name not in before}
    return out


def _new_tests_skipped(ctx: DiffContext, paths: list[str], run: TestRun) -> bool:
    """Whether every new test the run names was skipped: Delgan/loguru 3fb23a4 adds tests of
    Python 3.14's template strings, skipped on older Pythons, so "they pass on the base code"
    said nothing true."""
    counts = run.counts
    if counts is None or not counts.complete or not counts.skipped:
        return False
    new = _new_tests(ctx, paths)
    seen = [c for c in counts.cases if c.file is not None and (
        c.file, re.sub(r"\[.*\]$", "", c.name.split("::", 1)[-1]).replace("::", ".")) in new]
    return bool(seen) and all(c.outcome == "skipped" for c in seen)


def _fail_to_pass(ctx: DiffContext, ws: Workspace, command: str, side: sides.Sides,
                  severity: Severity, run_timeout: float, probes: probe.Probes,
                  ) -> tuple[str, list[Finding]]:
    """The summary's part and the finding of the head's tests over the base's code."""
    if not side.base_code:
        return "", []
    tests = side.tests if not side.rust_tests else []
    if not side.tests and not side.rust_tests:
        return "no test was added or changed", []
    # as long as a mutant's run may take: a new test that hangs on the base's code (boltons
    # 3e9983d's loops forever there) pins the change as well after a minute as after ten
    limited = dataclasses.replace(ws, timeout=min(ws.timeout, run_timeout))
    run: TestRun = runs.on_base_code(limited, command, side.base_code, tests)
    failed, unimported = junit.split_failed(run.failed_tests)
    if failed or unimported:
        said = [f"pinned by {len(failed)} test(s) that fail on the base code ({_names(failed)})"
                ] if failed else []
        if unimported:  # they need what the change adds: pinned too, but say it as it is
            said.append(f"{_names(unimported)} cannot be collected on the base code (it "
                        "uses what the change adds)")
        return "; ".join(said), []
    if not run.passed:
        return f"the new tests do not run on the base code ({run.problem()}): they pin it", []
    if _new_tests_skipped(ctx, side.tests, run):
        return ("the new tests are skipped on the base code here: they cannot say whether "
                "they pin the change"), []
    if side.first_line is None:  # the code change only removes lines: a removal that keeps
        # behaviour (mahmoud/boltons 580a9c2: duplicated checks dropped, tests added) is
        # exactly what new tests passing on the base code confirm
        return "the new and changed tests pass on the base code (the code change only " \
            "removes lines)", []
    code = [c.path for c in side.code]
    if code and probes.not_loaded(code) >= set(code):
        return (f"every new and changed test passes on the base code, and no test loads the "
                f"changed code here ({_names(sorted(set(code)))}, on this Python)"), []
    where = side.first_line
    named = _names(side.tests or side.rust_tests)
    return "every new and changed test passes on the base code", [Finding(
        where[0], where[1], "passes-at-base",
        f"the change's new and changed tests ({named}) all pass on the base code too: "
        "they do not test what the change does", severity=severity)]


def _mutants(ctx: DiffContext, ws: Workspace, command: str, side: sides.Sides, root: str,
             budget: Budget, severity: Severity, probes: probe.Probes, seconds: float,
             special: list[SpecialCase],
             ) -> tuple[str, list[Finding], list[MutantRun], list[MutantRun]]:
    """The summary's part, the survivors' findings, the mutants killed, and the special
    cases' deleted branches that every test survived (the general path agrees: a fast path)."""
    if budget.mutants == 0 or not side.code:
        return ("mutants off (pinned-mutants = 0)" if side.code else ""), [], [], []
    chosen = lines.choose(side.code, budget.mutants)
    deleted = deletions.chosen(chosen.mutants, special, side.code)
    if not deleted:
        return f"no mutant: the {chosen.lines} changed line(s) have nothing to test", [], [], []
    mutants, must = floor.ordered(deleted, side.code, len(deleted) - len(chosen.mutants))
    done = runs.mutants(ws, root, command, mutants,
                        lambda path: reach.tests_of(ctx, path), seconds,
                        budget.workers, budget.limits, must=must, floor=floor.FLOOR_S)
    ran = [d for d in done if d.run is not None]
    judged = judge.judge(done)
    agreed = [d for d in judged.survived if deletions.is_deletion(d.mutant)]
    survived = [d for d in judged.survived if d not in agreed]
    # a file whose survivor a test was seen running is loaded: no probe needed for it
    loaded = {d.mutant.path for d in survived if judge.seen_running(d)}
    unloaded = probes.not_loaded(d.mutant.path for d in survived if d.mutant.path not in loaded)
    findings = [Finding(d.mutant.path, d.mutant.line, "survived-mutant", f"{d.mutant.shown}: " + (
        "only tests that never ran this line failed" if d in judged.failed_elsewhere
        else "every test still passes"), severity=severity)
        for d in survived if d.mutant.path not in unloaded]
    text = f"{len(judged.killed)} of {len(ran)} mutants killed"
    left = []
    if unloaded:
        gone = sum(d.mutant.path in unloaded for d in survived)
        left.append(f"{gone} survivor(s) in {_names(sorted(unloaded))}, which no test loads "
                    "here (on this Python)")
    for why, these in judged.not_run_here.items():
        left.append(f"{len(these)} survivor(s) " + ("" if why == judge.EQUIVALENT else
                                                   "that no test ran, ") + f"{why} "
                    f"({_names([f'{d.mutant.path}:{d.mutant.line}' for d in these])})")
    if agreed:
        left.append(f"{len(agreed)} special case(s) whose branch deleted every test survives "
                    "(the general path gives the same answer: a fast path, "
                    f"{_names([f'{d.mutant.path}:{d.mutant.line}' for d in agreed])})")
    hung = [d for d in judged.timed_out if not d.cut]
    if hung:
        own = max(d.limit for d in hung)
        left.append(f"{len(hung)} timed out at its own limit ({own:.0f} s: "
                    f"{limits.MULTIPLE:g} times its tests' time in the suite's run)")
    if len(hung) < len(judged.timed_out):
        left.append(f"{len(judged.timed_out) - len(hung)} cut at the end of the time budget "
                    f"(or of the floor of {floor.FLOOR_S:.0f} s)")
    if len(done) > len(ran):
        left.append(f"{len(done) - len(ran)} not run (the time budget of {budget.seconds:.1f} s "
                    f"was spent, and the floor of {floor.FLOOR_S:.0f} s for one mutant per "
                    "changed function: `pinned-time` in [tool.gate] gives more)")
    if chosen.over_budget:
        left.append(f"{chosen.over_budget} line(s) over the budget of {budget.mutants} mutants")
    if chosen.nothing_to_test:
        left.append(f"{chosen.nothing_to_test} line(s) with nothing to test")
    return (text + (f"; left out: {', '.join(left)}" if left else ""), findings, judged.killed,
            agreed)


def run(ctx: DiffContext, ws: Workspace, command: str, root: str, review: bool,
        budget: Budget) -> CheckResult:
    """`root`: where the mutants' copies go (a new directory of the run's root)."""
    severity: Severity = "warning" if review else "notice"
    side = sides.read(ctx)
    if not side.base_code:
        return CheckResult(ID, TITLE, "passed", False, "no code changed")
    where = os.path.join(root, "pinned")
    probes = probe.Probes(ws, os.path.join(where, "probes"), command,
                          lambda path: reach.tests_of(ctx, path), budget.workers,
                          budget.limits, 3 * budget.run_timeout)
    base_part, findings = _fail_to_pass(ctx, ws, command, side, severity, budget.run_timeout,
                                        probes)
    special = special_cases.found(ctx, side.code)
    # the mutants get the whole budget: the head's tests over the base's code do not eat it
    mutant_part, survivors, killed, agreed = _mutants(ctx, ws, command, side, where, budget,
                                                      severity, probes, budget.seconds, special)
    findings += deletions.findings(special, killed, agreed, severity)
    findings += survivors
    findings += [Finding(path, line, "reads-source",
                         f"this test {what}: it fails for any edit of the text, whatever the "
                         "code does, so it pins nothing (and kills no mutant)",
                         severity=severity)
                 for path, line, what in source_reads.found(ctx, side.tests)]
    summary = "; ".join(p for p in (base_part, mutant_part) if p)
    status: Status = "failed" if review and findings else "passed"
    return CheckResult(ID, TITLE, status, False, summary, findings=tuple(findings))
