"""Whether the tests load a changed file at all, asked by what happens: the file replaced by
one that fails as soon as it is loaded, run like a mutant (the tests that name its module,
then the whole command). A probe the tests survive means no test loads the file here: its
mutants cannot be killed and new tests cannot fail for it, whatever the tests are worth.
agronholm/exceptiongroup loads its backport modules only on Python < 3.11, so on the gate's
3.11 every mutant there survived and its new tests passed on the base code (6 wrong findings).
Python only: a Go or Rust file that does not build fails its package's tests either way."""
from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

from gate.execution.run_workspace import Workspace
from gate.mutants.mutant import Mutant
from gate.pinned import runs

_FAILS_WHEN_LOADED = {
    ".py": b"raise RuntimeError('gate: a probe of whether the tests load this file')\n"}


def probe(path: str) -> Mutant | None:
    """`path` made to fail when it is loaded (None: not a language probed)."""
    text = _FAILS_WHEN_LOADED.get(posixpath.splitext(path)[1])
    return Mutant(path, 1, "statement", 0, 0, text, "the file",
                  "a file that fails when it is loaded") if text else None


class Probes:
    """Each file probed once per run, whichever part of `pinned` asks first."""

    def __init__(self, ws: Workspace, root: str, command: str,
                 reach: Callable[[str], list[str]], workers: int, limits: runs.Limits,
                 seconds: float) -> None:
        self._ws, self._root, self._command, self._reach = ws, root, command, reach
        self._workers, self._limits, self._seconds = workers, limits, seconds
        self._asked: dict[str, bool] = {}  # path -> loaded by no test

    def not_loaded(self, paths: Iterable[str]) -> set[str]:
        """The `paths` whose probe every test survived: no test loads them here."""
        wanted = sorted(set(paths))
        probes = [p for p in map(probe, wanted) if p is not None and p.path not in self._asked]
        if probes:
            done = runs.mutants(self._ws, self._root, self._command, probes, self._reach,
                                self._seconds, self._workers, self._limits,
                                name=f"pinned-probe-{len(self._asked)}", record=False)
            self._asked.update((d.mutant.path, d.run is not None and d.run.passed)
                               for d in done)
        return {p for p in wanted if self._asked.get(p, False)}
