"""escapes: new type and lint escapes on added lines, in comments or code, never in strings."""
from __future__ import annotations

import re

from gate.checks import allow
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import escape_items, escape_patterns, identity, source
from gate.lang.escape_items import Escape
from gate.lang.escape_patterns import EscapePattern
from gate.lang.identity import Anchor, Anchors
from gate.lang.lines import Source
from gate.models import CheckResult, Finding
from gate.vcs.diff import ChangedFile

ID = "escapes"
TITLE = "No new type or lint escapes"
EXPLANATION = """\
Flags type and lint escapes that the change adds: `# type: ignore`, `# noqa`, `# pragma: no cover`,
`as any`, `@ts-ignore`, `eslint-disable`, `#[allow(...)]`, `//nolint`, `@SuppressWarnings` and
their kin, on added lines only, in comments or code but never inside string literals, and where the
tool reads them: a type checker's directive at a comment's start or after a `#` in it, not quoted
in its prose (`` # once `f() # type: ignore` `` is no escape). An escape is new unless the base had
the same escape on the same statement or definition, as a parser reads it (a comment on a line of
its own belongs to the statement after it): a line the change only moved, re-indented, or that a
formatter joined or split, is not new, and neither is an existing escape narrowed to fewer rules
(`# type: ignore` to `# type: ignore[code]`). One whose code was renamed on the same statement
(mypy's `misc` to `untyped-decorator`) is a notice, "code changed". An escape turns a checker's
error into silence: the type checker, linter or coverage report still passes, but nobody has looked
at what it would have said, and an agent reaches for one when it cannot make the error go away
honestly. Resolve it by fixing the underlying error; an escape that must stay, narrowed to one
error code, is a person's to approve on the pull request.

An allow comment (`# gate: allow escapes -- <why>`, `//` in a .ts, .go or .rs file) counts only
once a person has merged it: one the change writes lowers nothing, and one without a reason is
flagged here. A coverage pragma in a test file (a stub's body that never runs) hides none of the
code's lines, and a `@ts-expect-error` in a type test (`*.test-d.ts`, tsd's `test-d/`) is its
assertion: not flagged."""


def _may_hold(f: ChangedFile) -> bool:
    """Whether an added line may hold an escape or an allow comment: only then is it parsed."""
    words = escape_patterns.words_for(f.path)
    return any("gate:" in line or words.search(line) for line in f.new_lines.values())


def _candidates(ctx: DiffContext) -> list[ChangedFile]:
    return [
        f for f in ctx.files
        if f.status != "deleted" and not f.binary and not f.symlink and f.new_lines
        and _may_hold(f) and not ctx.is_foreign(f.path)
    ]


def _allow_findings(f: ChangedFile, split: Source | None) -> list[Finding]:
    """Allow comments on added lines that cannot be honoured: no reason, or no such check."""
    out = []
    for number, added in f.new_lines.items():
        if "gate:" not in added:
            continue
        line = split.lines.get(number) if split is not None else None
        found = allow.parse(allow.unparsed_comment(added, f.path) if line is None
                            else line.comment if split and split.lexed else line.code)
        why = allow.problem(found, f.path) if found is not None else None
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
    """Without a parse of both sides: an escape on an added line is new unless a removed line
    held it on the same text."""
    rows, words = _rows(path, in_tests), escape_patterns.words_for(path)
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


# Type tests (vitest's `*.test-d.ts`, tsd's `test-d/`): a `@ts-expect-error` there is the
# assertion that a call does not type-check, not an error silenced.
_TYPE_TESTS = re.compile(r"(?:^|/)(?:[^/]+\.(?:test|spec)-d\.[cm]?tsx?|test-d/[^/]+\.[cm]?tsx?)$")


def _rows(path: str, in_tests: bool) -> tuple[EscapePattern, ...]:
    rows = escape_patterns.rows_for(path)
    if in_tests:  # a test's own lines left out of coverage hide nothing of the code's
        rows = tuple(row for row in rows if row.silences != escape_patterns.COVERAGE)
    if _TYPE_TESTS.search(path):
        rows = tuple(row for row in rows if row.rule != "@ts-expect-error")
    return rows


def _side(ctx: DiffContext, ref: str, path: str) -> tuple[str, Source, Anchors] | None:
    text = ctx.text(ref, path)
    split = (ctx.source(path) if ref == ctx.head else
             source.split(path, text) if text is not None else None)
    found = identity.anchors(path, text, split) if text is not None else None
    return None if text is None or split is None or found is None else (text, split, found)


def _by_statement(ctx: DiffContext, f: ChangedFile, rows: tuple[EscapePattern, ...],
                  fresh: dict[int, str]) -> list[Finding] | None:
    """Each escape of the head on a line the change adds, against the base's escapes by the
    statement they belong to; None when a side does not parse."""
    head = _side(ctx, ctx.head, f.path)
    base_path = f.moved_from or f.path
    base = _side(ctx, ctx.base, base_path) if f.status != "added" or f.moved_from else None
    if head is None or (base is None and (f.status != "added" or f.moved_from)):
        return None
    pool: dict[tuple[str, Anchor], list[Escape]] = {}
    for item in escape_items.found(base_path, *base, rows) if base else []:
        for anchor in item.anchors:
            pool.setdefault((item.row.rule, anchor), []).append(item)

    def take(new: Escape) -> Escape | None:
        """The base's escape that `new` is, taken from the pool under all its anchors."""
        same = next((pool[k] for k in ((new.row.rule, a) for a in new.anchors) if pool.get(k)),
                    None)
        old = escape_items.take(same, new) if same else None
        if old is not None:
            for anchor in old.anchors:
                left = pool.get((old.row.rule, anchor), [])
                if old in left:
                    left.remove(old)
        return old

    ours = escape_items.found(f.path, *head, rows)
    added = f.new_lines
    for new in ours:  # the lines left as they were hold the same escapes
        if new.line not in added:
            take(new)
    # lines moved here from another file (in this file, the statement says what moved)
    own = {text.strip() for text in f.removed.values()}
    findings: list[Finding] = []
    unmatched: list[Escape] = []
    for new in ours:
        if new.line not in added:
            continue
        old = take(new)
        if old is None and new.line not in fresh and added[new.line].strip() not in own:
            continue
        if old is None:
            unmatched.append(new)
        elif escape_items.wider(old, new):
            findings.append(_finding(f.path, new.line, new.row, new.shown))
        elif old.directive.codes is not None and not (
                new.directive.codes or set()) <= old.directive.codes:
            findings.append(escape_items.code_changed(f.path, old, new))
    gone = list({id(e): e for left in pool.values() for e in left
                 if e.line in f.removed}.values())
    for new in unmatched:  # the same escape on its statement, edited (a name renamed)
        if escape_items.edited(gone, new) is None:
            findings.append(_finding(f.path, new.line, new.row, new.shown))
    return findings


def run(ctx: DiffContext) -> CheckResult:
    files = _candidates(ctx)
    blobs = ctx.read(ctx.head, [f.path for f in files])
    findings: list[Finding] = []
    for f in files:
        if blobs[f.path] is not None:
            split = ctx.source(f.path)
            in_tests = ctx.is_test_code(f.path)
            fresh = ctx.fresh_lines(f)
            found = _by_statement(ctx, f, _rows(f.path, in_tests), fresh)
            if found is None:
                left = ctx.unmoved_removed(f)  # a removed line excuses one added line, not two
                removed = _Removed([left[n] for n in sorted(left)])
                found = _scan(f.path, split, fresh, removed, in_tests)
            findings.extend(found)
            findings.extend(_allow_findings(f, split))
    return from_findings(ID, TITLE, findings, clean="no new escapes",
                         found="{n} new type or lint escape(s)")
