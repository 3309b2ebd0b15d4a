"""What the test runner loaded of the checkout around the tests, as the gate's Node preload
saw it (`gate/outcomes/node_witness.py`): its configuration under any name (a file the
runner's own code required, and what that file requires; the files Vite bundled into its
config), setup files (Vitest's; what Jest's runtime loads at the top, but the test file). A
changed file so loaded that is not a test file is a `runner-loaded` finding: it changes how
every test runs, whatever it is called (`vite.config.js` as well as `vitest.config.ts`), and
base-tests, which puts the base's tests back, leaves it in place. Setup files count even
under a test directory: they are not tests."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from gate.models import Finding
from gate.outcomes.node_witness import LOADED
from gate.outcomes.record import Counts

RULE = "runner-loaded"


def compare(head: Sequence[Counts | None], changed: Collection[str],
            is_test: Callable[[str], bool]) -> list[Finding]:
    found: dict[str, str] = {}
    for counts in head:
        for w in counts.watched if counts is not None else ():
            setup = w.detail.startswith("setup ")
            if w.kind == LOADED and w.file in changed and (setup or not is_test(w.file)):
                found.setdefault(w.file, w.detail)
    return [Finding(path, 1, RULE,
                    f"the test runner loaded this changed file as its {detail}: what the "
                    "runner loads around the tests (its configuration under any name, a "
                    "setup file, a reporter, an environment) changes how every test runs, "
                    "and base-tests does not put it back", "warning")
            for path, detail in sorted(found.items())]
