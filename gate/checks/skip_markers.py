"""skip-markers: new skip, xfail, focus and todo markers in the lines the change adds."""
from __future__ import annotations

from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import markers, py_aliases, py_dynamic
from gate.models import CheckResult, Finding, Severity
from gate.vcs.diff import ChangedFile

ID = "skip-markers"
TITLE = "No new skip, xfail or focus markers"
EXPLANATION = """\
Flags skip, xfail, focus and todo markers on lines the change adds, per framework: pytest and
unittest, Jest, Vitest, Mocha, Jasmine, AVA and node:test, Go, Rust, JUnit and RSpec. A skipped or
xfailed test is a failing test that no longer fails the suite, and a focused test (`it.only`,
`fit`) silently turns off every other test: a reviewer must see each one. Markers inside strings,
docstrings and comments, in generated or vendored files, on lines already present at the base, and
on lines the change moved or re-indented together with the line under them (a test file split
into a package, a block wrapped in a new `if`) are not flagged. To resolve: fix the test instead,
or keep the marker with a comment on its line or the line above,
`gate: allow skip-markers -- <reason, e.g. an issue link>`, which turns the finding into a notice
that a reviewer reads."""

_SEVERITY: dict[markers.Kind, Severity] = {
    "skip": "error", "xfail": "error", "focus": "error", "todo": "warning",
}
_RAW = " (file did not parse; matched on raw text)"
_LEXED = " (file did not parse; strings and comments told apart by a lexer)"


def _scanned(ctx: DiffContext) -> list[ChangedFile]:
    """Files whose added lines may hold a marker: only these are read and parsed (any Python
    file with added lines: a marker may be spelled through an alias its imports make)."""
    return [
        f for f in ctx.files
        if f.new_lines and not f.binary and not f.symlink and f.status != "deleted"
        and (_may_hold(f) or markers.language_of(f.path) == "python")
        and not ctx.is_generated(f.path)
    ]


def _may_hold(f: ChangedFile) -> bool:
    words = markers.keywords_for(f.path)
    return words is not None and any(words.search(line) for line in f.new_lines.values())


def _aliases(ctx: DiffContext, path: str) -> py_aliases.Aliases:
    """Python: the names the head file gives pytest and unittest."""
    if markers.language_of(path) != "python":
        return py_aliases.NONE
    return py_aliases.aliases(ctx.text(ctx.head, path) or "")


def _file_findings(ctx: DiffContext, changed: ChangedFile) -> list[Finding]:
    rows = markers.for_file(changed.path, is_test=ctx.is_test_code(changed.path))
    split = ctx.source(changed.path)
    lexed = split is not None and split.lexed
    note = "" if split is None or split.parsed else _LEXED if lexed else _RAW
    quick, words = markers.combined(rows), markers.keywords_for(changed.path)
    aliases = _aliases(ctx, changed.path)
    uses = aliases.uses()
    findings = []
    fresh = ctx.fresh_lines(changed, context=1)  # a marker moved with the test under it: not new
    for number in sorted(fresh):
        added = fresh[number]
        aliased = uses is not None and uses.search(added) is not None
        if words is None or not (words.search(added) or aliased):
            continue
        line = split.lines.get(number) if split is not None else None
        code = line.code if line is not None and lexed else added
        if aliased and uses is not None:
            code = aliases.resolve(number, code, uses)
        if not quick.search(code):
            continue
        for marker in markers.find(rows, code):
            message = marker.message + note
            findings.append(Finding(changed.path, number, marker.id, message,
                                    severity=_SEVERITY[marker.kind], end_line=number))
    return findings


def _computed(ctx: DiffContext, changed: ChangedFile) -> list[Finding]:
    """`getattr(pytest, name)` with a computed name: a marker the rules above cannot read."""
    if markers.language_of(changed.path) != "python":
        return []
    return [Finding(changed.path, line, "framework-getattr",
                    f"`getattr` on {target} with a computed name: it can reach a skip or xfail "
                    "that no marker rule reads; write the attribute out", severity="warning",
                    end_line=line)
            for line, target in py_dynamic.computed_getattrs(ctx.text(ctx.head, changed.path)
                                                             or "", changed.new_lines)]


def run(ctx: DiffContext) -> CheckResult:
    files = _scanned(ctx)
    blobs = ctx.read(ctx.head, [f.path for f in files])
    findings: list[Finding] = []
    for changed in files:
        if blobs[changed.path] is not None:
            findings.extend(_file_findings(ctx, changed))
            findings.extend(_computed(ctx, changed))
    return from_findings(ID, TITLE, findings, clean="no new skip, xfail or focus markers",
                         found="{n} new skip, xfail, focus or todo marker(s)")
