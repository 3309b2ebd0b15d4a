"""`gate hook pre-commit` and `gate hook pre-push`: what the pre-commit framework's hooks and
the plain scripts in hooks/ run. The same output and exit code from either."""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from gate.engine import runner
from gate.engine.verdict import EXIT_CANNOT_JUDGE, EXIT_CODES
from gate.execution import workspace
from gate.models import Report
from gate.report import terminal
from gate.report.text import TextProgress
from gate.vcs import git, prepush

_WORST_FIRST = (EXIT_CANNOT_JUDGE, EXIT_CODES["fail"], EXIT_CODES["needs-review"], 0)


def _print(report: Report, out: TextIO, environ: Mapping[str, str]) -> int:
    out.write(terminal.render(report, terminal.wants_colour(out, environ)))
    out.flush()
    return EXIT_CODES[report.verdict]


def pre_commit(repo: str, out: TextIO, environ: Mapping[str, str]) -> int:
    """The diff checks on the staged change against HEAD."""
    root = workspace.resolve_repo(repo)
    if not git.run(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False):
        print("gate: the first commit has no HEAD to compare the staged change with; "
              "not scanned", file=out)
        return 0
    report = runner.scan(runner.Options(base="HEAD", repo=root, staged=True))
    return _print(report, out, environ)


def pre_push(repo: str, remote: str | None, lines: Sequence[str], out: TextIO,
             environ: Mapping[str, str]) -> int:
    """The whole gate on every range the push asks to judge; the worst exit code."""
    root = workspace.resolve_repo(repo)
    push = prepush.plan(root, environ, remote, lines)
    for note in push.notes:
        print(f"gate: {note}", file=out)
    codes = [0]
    for r in push.ranges:
        progress = TextProgress() if sys.stderr.isatty() else runner.Progress()
        if len(push.ranges) > 1:
            print(f"gate: {r.ref}", file=out)
        report = runner.run(runner.Options(base=r.base, head=r.head, repo=root), progress)
        if report.isolation.warning:  # macOS, or no user namespaces: said, not fatal
            print(f"gate: warning: {report.isolation.warning}", file=out)
        codes.append(_print(report, out, environ))
    return min(codes, key=_WORST_FIRST.index)


def main(stage: str, remote: str | None) -> int:
    if stage == "pre-commit":
        return pre_commit(".", sys.stdout, os.environ)
    lines = sys.stdin.read().splitlines() if remote is not None else []
    return pre_push(".", remote, lines, sys.stdout, os.environ)
