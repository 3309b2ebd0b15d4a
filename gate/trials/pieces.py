"""A suite run split by test file into pieces that run side by side, read back as one run.

    cut = pieces.Splitter(files, parts=2, checkout=ws.checkout).cut(trial)  # None: run whole
    outcomes = scheduler.run(cut.trials, at_once=2)
    run = cut.joined(outcomes)                                  # one Outcome for the run

With pytest only (a single invocation, no test path of its own: the gate appends them): each
of the first pieces runs a chunk of `files` (balanced by size, the command with the files
appended), the last runs the rest of what the command collects (the chunked files left out
with `--ignore`); a rest that collects nothing (exit 5) is no failure, and one that would
collect nothing is not started (`needs_rest`: every test of run 1, finished by then, is in a
chunk): a pytest start saved, which on a code-only change is the last one of the run. Every
piece keeps the run's order and gets a file system of its own (the sealed boundary's layer
per command), so pieces need `layer.usable`. Whether the pieces ran exactly the tests of the
whole run is watched, not assumed: `same_tests` against an unsplit run's outcomes (a command whose
collection the gate misread would run some twice, or miss some).

`passed_chunks` says which files ran in a piece of their own and passed there, every outcome
of it in those files: base-tests reads the base's unchanged test files' outcomes from them
(the same files over the same code, with the same support files, in a process of their own).
"""
from __future__ import annotations

import dataclasses
import os
import shlex
from collections.abc import Sequence

from gate.execution.run_workspace import Workspace
from gate.outcomes import joined
from gate.outcomes.pytest_command import single_pytest_args
from gate.outcomes.testrun import TestRun
from gate.trials import layer
from gate.trials.trial import Outcome, Trial

_NO_TESTS = 5  # pytest's exit status when it collected nothing


def takes_pieces(command: str, checkout: str) -> bool:
    """One pytest invocation naming no path of the checkout (its tests are what pytest's
    configuration collects), so that test files can be appended to it."""
    args = single_pytest_args(command)
    if args is None:
        return False
    return not any(not a.startswith("-") and os.path.lexists(
        os.path.join(checkout, a.split("::")[0])) for a in args)


def _size(checkout: str, path: str) -> int:
    try:
        return os.lstat(os.path.join(checkout, path)).st_size
    except OSError:
        return 0


def chunks(files: Sequence[str], parts: int, checkout: str) -> list[list[str]]:
    """`files` in `parts` chunks of about the same size (the largest file first into the
    smallest chunk), each in the files' own order; no empty chunk."""
    bins: list[list[str]] = [[] for _ in range(max(1, min(parts, len(files))))]
    load = [0] * len(bins)
    for path in sorted(files, key=lambda p: -_size(checkout, p)):
        i = load.index(min(load))
        bins[i].append(path)
        load[i] += _size(checkout, path) + 1
    order = {p: n for n, p in enumerate(files)}
    return [sorted(b, key=order.__getitem__) for b in bins if b]


@dataclasses.dataclass(frozen=True)
class Cut:
    whole: Trial
    chunked: tuple[tuple[str, ...], ...]  # the files of each chunk's piece
    trials: tuple[Trial, ...]  # a piece per chunk, then the rest

    @property
    def rest(self) -> Trial:
        return self.trials[-1]

    def needs_rest(self, first: TestRun | None) -> bool:
        """Whether the rest may collect a test: unless run 1 (unsplit, `first`; None: not
        finished yet) ran every test it ran in the chunked files. What it ran is what the
        pieces must run (`same_tests`): a rest left out wrongly makes the run whole again."""
        if first is None or first.counts is None or not first.counts.complete:
            return True
        files = {f for chunk in self.chunked for f in chunk}
        return not first.counts.cases or any(c.file not in files for c in first.counts.cases)

    def joined(self, outcomes: Sequence[Outcome | None]) -> Outcome:
        """The pieces' outcomes (in `trials`' order; the rest None where it was not started)
        as the whole run's."""
        kept = [o for o in outcomes if o is not None]
        parts = [(o.trial.name, o.run) for o in kept]
        rest = outcomes[-1].run if outcomes[-1] is not None else None
        if rest is not None and rest.completed.returncode == _NO_TESTS and (
                rest.counts is None or not rest.counts.cases):
            parts = parts[:-1]  # every test is in a chunk
        return Outcome(self.whole, joined.one_run(parts), kept[0].order)

    def passed_chunks(self, outcomes: Sequence[Outcome | None], whole: TestRun) -> set[str]:
        """The files of each chunk whose piece passed having run exactly the tests that the
        `whole` run (unsplit) ran in those files, and no other."""
        if whole.counts is None:
            return set()
        everything = whole.counts.cases
        out: set[str] = set()
        for files, outcome in zip(self.chunked, outcomes, strict=False):
            if outcome is None:
                continue
            counts = outcome.run.counts
            if not outcome.run.passed or counts is None or not counts.complete:
                continue
            expected = sorted(c.name for c in everything if c.file in files)
            if expected and sorted(c.name for c in counts.cases) == expected:
                out.update(files)
        return out


@dataclasses.dataclass(frozen=True)
class Splitter:
    """How the suite's runs are cut: `files` (relative to the checkout) in `parts` chunks."""
    files: tuple[str, ...]
    parts: int

    def cut(self, trial: Trial) -> Cut | None:
        """`trial` in pieces; None where it runs whole (not pytest as `takes_pieces` says, no
        layer of its own per command, fewer than two pieces)."""
        ws: Workspace = trial.workspace
        py = [f for f in self.files if f.endswith(".py")]
        if not py or not layer.usable(ws) or not takes_pieces(trial.command, ws.checkout):
            return None
        found = chunks(py, self.parts, ws.checkout)
        pieces = [dataclasses.replace(trial, name=f"{trial.name}-part-{i}",
                                      command=f"{trial.command} {shlex.join(files)}")
                  for i, files in enumerate(found, 1)]
        ignored = tuple(f"--ignore={f}" for f in py)
        rest = dataclasses.replace(trial, name=f"{trial.name}-rest",
                                   extra_addopts=(*trial.extra_addopts, *ignored))
        return Cut(trial, tuple(map(tuple, found)), (*pieces, rest))


def same_tests(a: TestRun, b: TestRun) -> bool:
    """Whether two runs ran the same tests, each once (by name)."""
    if a.counts is None or b.counts is None:
        return False
    names_a = [c.name for c in a.counts.cases]
    names_b = [c.name for c in b.counts.cases]
    return len(set(names_a)) == len(names_a) and sorted(names_a) == sorted(names_b)
