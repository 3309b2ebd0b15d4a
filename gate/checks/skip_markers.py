"""skip-markers: new skip, xfail, focus and todo markers in the lines the change adds."""
from __future__ import annotations

from gate import markers, source
from gate.checks.common import from_findings
from gate.context import DiffContext
from gate.diff import ChangedFile
from gate.generated import is_generated
from gate.models import CheckResult, Finding, Severity

ID = "skip-markers"
TITLE = "No new skip, xfail or focus markers"
EXPLANATION = """\
Flags skip, xfail, focus and todo markers on lines the change adds, per framework: pytest and
unittest, Jest, Vitest, Mocha, Jasmine and node:test, Go, Rust, JUnit and RSpec. A skipped or
xfailed test is a failing test that no longer fails the suite, and a focused test (`it.only`,
`fit`) silently turns off every other test: a reviewer must see each one. Markers inside strings,
docstrings and comments, in generated or vendored files, and on lines already present at the base
are not flagged. To resolve: fix the test instead, or keep the marker and give the reason (an
issue link) in the pull request so that a person can accept it."""

_SEVERITY: dict[markers.Kind, Severity] = {
    "skip": "error", "xfail": "error", "focus": "error", "todo": "warning",
}
_UNPARSED = " (file did not parse; matched on raw text)"


def _scanned(ctx: DiffContext) -> list[ChangedFile]:
    return [
        f for f in ctx.files
        if f.added and not f.binary and not f.symlink and f.status != "deleted"
        and not is_generated(f.path) and markers.language_of(f.path) is not None
    ]


def _file_findings(ctx: DiffContext, changed: ChangedFile, text: str) -> list[Finding]:
    rows = markers.for_file(changed.path, is_test=ctx.is_test_file(changed.path))
    split = source.split(changed.path, text)
    parsed = split is not None and split.parsed
    findings = []
    for number in sorted(changed.added):
        line = split.lines.get(number) if split is not None else None
        code = line.code if line is not None and parsed else changed.added[number]
        for marker in markers.find(rows, code):
            message = marker.message + ("" if parsed else _UNPARSED)
            findings.append(Finding(changed.path, number, marker.id, message,
                                    severity=_SEVERITY[marker.kind], end_line=number))
    return findings


def run(ctx: DiffContext) -> CheckResult:
    files = _scanned(ctx)
    blobs = ctx.read(ctx.head, [f.path for f in files])
    findings: list[Finding] = []
    for changed in files:
        blob = blobs[changed.path]
        if blob is not None:
            findings.extend(_file_findings(ctx, changed, blob.decode("utf-8", "replace")))
    return from_findings(ID, TITLE, findings, clean="no new skip, xfail or focus markers",
                         found="{n} new skip, xfail, focus or todo marker(s)")
