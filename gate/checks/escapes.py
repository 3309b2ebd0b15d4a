"""escapes: new type and lint escapes on added lines, in comments or code, never in strings."""
from __future__ import annotations

from gate import escape_patterns, generated, source
from gate.checks.common import from_findings
from gate.context import DiffContext
from gate.diff import ChangedFile
from gate.escape_patterns import EscapePattern
from gate.models import CheckResult, Finding

ID = "escapes"
TITLE = "No new type or lint escapes"
EXPLANATION = """\
Flags type and lint escapes that the change adds: `# type: ignore`, `# noqa`, `# pragma: no cover`,
`as any`, `@ts-ignore`, `eslint-disable`, `#[allow(...)]`, `//nolint`, `@SuppressWarnings` and
their kin, on added lines only, in comments or code but never inside string literals. An escape
turns a checker's error into silence: the type checker, linter or coverage report still passes,
but nobody has looked at what it would have said, and an agent reaches for one when it cannot make
the error go away honestly. Resolve it by fixing the underlying error, or keep the escape, narrow
it to one error code, and say in the pull request why the checker is wrong here."""


def _candidates(ctx: DiffContext) -> list[ChangedFile]:
    return [
        f for f in ctx.files
        if f.status != "deleted" and not f.binary and not f.symlink and f.added
        and not generated.is_generated(f.path) and escape_patterns.rows_for(f.path)
    ]


def _finding(path: str, line: int, row: EscapePattern, matched: str) -> Finding:
    shown = " ".join(matched.strip(" /*").split()) or row.rule
    return Finding(
        path=path,
        line=line,
        rule=row.rule,
        severity="warning",
        message=(
            f"new `{shown}` silences {row.silences}: the error it hides is not reviewed. "
            "Fix the cause, or say in the pull request why the escape is right"
        ),
    )


def _scan(path: str, text: str, added: dict[int, str]) -> list[Finding]:
    split = source.split(path, text)
    if split is None:
        return []
    rows = escape_patterns.rows_for(path)
    findings: list[Finding] = []
    for number in sorted(added):
        line = split.lines.get(number)
        if line is None:
            continue
        for row in rows:
            # A file that did not tokenize has no comment text: look in the raw line instead.
            haystack = line.code if row.where == "code" or not split.parsed else line.comment
            match = row.pattern.search(haystack)
            if match is not None:
                findings.append(_finding(path, number, row, match.group()))
    return findings


def run(ctx: DiffContext) -> CheckResult:
    files = _candidates(ctx)
    blobs = ctx.read(ctx.head, [f.path for f in files])
    findings: list[Finding] = []
    for f in files:
        blob = blobs[f.path]
        if blob is not None:
            findings.extend(_scan(f.path, blob.decode("utf-8", "replace"), f.added))
    return from_findings(ID, TITLE, findings, clean="no new escapes",
                         found="{n} new type or lint escape(s)")
