"""escapes: new type and lint escapes on added lines, in comments or code, never in strings."""
from __future__ import annotations

from gate.checks import allow
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import escape_patterns
from gate.lang.escape_patterns import EscapePattern
from gate.lang.lines import Source
from gate.models import CheckResult, Finding
from gate.vcs.diff import ChangedFile

ID = "escapes"
TITLE = "No new type or lint escapes"
EXPLANATION = """\
Flags type and lint escapes that the change adds: `# type: ignore`, `# noqa`, `# pragma: no cover`,
`as any`, `@ts-ignore`, `eslint-disable`, `#[allow(...)]`, `//nolint`, `@SuppressWarnings` and
their kin, on added lines only, in comments or code but never inside string literals. A line the
change only moved or re-indented, or an existing escape narrowed to fewer rules (`# type: ignore`
to `# type: ignore[code]`), is not new. An escape
turns a checker's error into silence: the type checker, linter or coverage report still passes,
but nobody has looked at what it would have said, and an agent reaches for one when it cannot make
the error go away honestly. Resolve it by fixing the underlying error, or keep the escape, narrow
it to one error code, and add `gate: allow escapes -- <why the checker is wrong here>` on its line
or the line above. An allow comment without a reason is itself flagged here. A coverage pragma
in a test file (a stub's body that never runs) hides none of the code's lines: not flagged."""


def _may_hold(f: ChangedFile) -> bool:
    """Whether an added line may hold an escape or an allow comment: only then is it parsed."""
    words = escape_patterns.words_for(f.path)
    return any("gate:" in line or words.search(line) for line in f.new_lines.values())


def _candidates(ctx: DiffContext) -> list[ChangedFile]:
    return [
        f for f in ctx.files
        if f.status != "deleted" and not f.binary and not f.symlink and f.new_lines
        and _may_hold(f) and not ctx.is_generated(f.path)
    ]


def _allow_findings(f: ChangedFile, split: Source | None) -> list[Finding]:
    """Allow comments on added lines that cannot be honoured: no reason, or no such check."""
    out = []
    for number, added in f.new_lines.items():
        if "gate:" not in added:
            continue
        line = split.lines.get(number) if split is not None else None
        found = allow.parse(allow.unparsed_comment(added) if line is None
                            else line.comment if split and split.lexed else line.code)
        why = allow.problem(found) if found is not None else None
        if why is not None:
            out.append(Finding(f.path, number, "gate: allow", why, severity="warning"))
    return out


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


class _Removed:
    """The file's removed lines that held an escape, by rule and by the code it was on, read
    once per rule: one lookup per new escape, however long the file."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._by_rule: dict[str, dict[str, list[escape_patterns.Directive]]] = {}

    def take(self, rule: str, head: escape_patterns.Directive) -> bool:
        """Whether a removed escape of `rule` on the same code was as wide or wider; it is
        used up, so one old escape excuses one new line."""
        if rule not in self._by_rule:
            index: dict[str, list[escape_patterns.Directive]] = {}
            for text in self._lines:
                found = escape_patterns.directive(rule, text)
                if found is not None:
                    index.setdefault(found.rest, []).append(found)
            self._by_rule[rule] = index
        same = self._by_rule[rule].get(head.rest, [])
        for i, base in enumerate(same):
            if escape_patterns.no_wider(base, head):
                del same[i]
                return True
        return False


def _narrowed(row: EscapePattern, added: str, removed: _Removed) -> bool:
    """Whether the escape on an added line is one the file already had on the same code, as
    wide or wider (`# type: ignore` -> `# type: ignore[code]`): that escape is not new."""
    head = escape_patterns.directive(row.rule, added)
    return head is not None and removed.take(row.rule, head)


def _scan(path: str, split: Source | None, added: dict[int, str],
          removed: _Removed, in_tests: bool = False) -> list[Finding]:
    rows, words = escape_patterns.rows_for(path), escape_patterns.words_for(path)
    if in_tests:  # a test's own lines left out of coverage hide nothing of the code's
        rows = tuple(row for row in rows if row.silences != escape_patterns.COVERAGE)
    if split is None or not rows:
        return []
    findings: list[Finding] = []
    for number in sorted(added):
        line = split.lines.get(number)
        if line is None or not words.search(added[number]):
            continue
        for row in rows:
            # A file read as raw text has no comment text: look in the raw line instead.
            haystack = line.code if row.where == "code" or not split.lexed else line.comment
            match = row.pattern.search(haystack)
            if match is not None and not _narrowed(row, added[number], removed):
                findings.append(_finding(path, number, row, match.group()))
    return findings


def run(ctx: DiffContext) -> CheckResult:
    files = _candidates(ctx)
    blobs = ctx.read(ctx.head, [f.path for f in files])
    findings: list[Finding] = []
    for f in files:
        if blobs[f.path] is not None:
            split = ctx.source(f.path)
            left = ctx.unmoved_removed(f)  # a removed line excuses one added line, not two
            removed = _Removed([left[n] for n in sorted(left)])
            findings.extend(_scan(f.path, split, ctx.fresh_lines(f), removed,
                                  ctx.is_test_code(f.path)))
            findings.extend(_allow_findings(f, split))
    return from_findings(ID, TITLE, findings, clean="no new escapes",
                         found="{n} new type or lint escape(s)")
