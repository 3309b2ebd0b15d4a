"""`gate demo`: the gate catching an agent's hidden break, in seconds, on a fresh machine.
It builds a small repository in a temporary directory (`demo_repo`), runs the real gate on
it, as CI would, and says what it caught. Exit 0 when the gate caught it, 1 if it did not."""
from __future__ import annotations

import shutil
import tempfile
from typing import TextIO

from gate.adopt import demo_repo
from gate.engine import runner
from gate.engine.verdict import EXIT_CODES
from gate.models import Report
from gate.report import text

STORY = """\
gate demo: a repository in {root}, with two branches:
  main   {base}  calc.py (add, mean) and its tests, all passing
  agent  {head}  an agent's change: "Add percent(); tidy mean(). All tests pass."
                 They do pass: it turned mean() into integer division, then edited
                 test_mean to expect the wrong answer, and skipped a test as "flaky".

gate demo: judging the agent's branch as CI would: gate run --base main --head agent
           (the suite runs twice, not the default 3 times: the demo's config sets
           `runs = 2` to stay short on a small machine)
"""
CAUGHT = ("\ngate demo: the gate answered {verdict} (exit {code}) on a change whose own suite "
          "passes:\n")
# What each check that raised a finding caught, in the demo's terms.
NOTES = {
    "base-tests": "base-tests put the base's test_mean back over the agent's code: it fails,\n"
                  "    so the change altered behaviour an existing test pinned down. A person\n"
                  "    decides: a bug fix, or a break hidden by editing the test?",
    "skip-markers": "skip-markers found the new @unittest.skip: a test that no longer runs.",
}
EXPLORE = ("  `gate explain base-tests` says more; `gate demo --keep` leaves the repository to\n"
           "  explore (`git diff main agent`, then `gate run --base main` in it).\n")
MISSED = """
gate demo: the gate answered {verdict}: it did not catch the demo's hidden break. This is a
bug in gate: please report it with the output above.
"""


def explain(report: Report) -> str:
    if report.verdict == "pass":
        return MISSED.format(verdict=report.verdict)
    notes = [f"  - {NOTES.get(c.id, c.summary)}\n" for c in report.checks if c.findings]
    return (CAUGHT.format(verdict=report.verdict, code=EXIT_CODES[report.verdict])
            + "".join(notes) + EXPLORE)


def caught(report: Report) -> bool:
    return report.verdict != "pass"


def main(out: TextIO, keep: bool = False) -> int:
    root = tempfile.mkdtemp(prefix="gate-demo-")
    try:
        base, head = demo_repo.build(root)
        out.write(STORY.format(root=root, base=base[:7], head=head[:7]))
        out.flush()
        report = runner.run(runner.Options(base="main", head="agent", repo=root))
        out.write("\n" + text.render(report) + explain(report))
        if keep:
            out.write(f"gate demo: the repository is kept in {root}\n")
        return 0 if caught(report) else 1
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
