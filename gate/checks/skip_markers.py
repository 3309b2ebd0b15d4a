"""skip-markers: new skip, xfail, focus and todo markers in the lines the change adds."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator

from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import identity, markers, py_aliases, py_dynamic, source
from gate.lang.identity import Anchor
from gate.lang.lines import Source
from gate.models import CheckResult, Finding, Severity
from gate.vcs.diff import ChangedFile

ID = "skip-markers"
TITLE = "No new skip, xfail or focus markers"
EXPLANATION = """\
Flags skip, xfail, focus and todo markers on lines the change adds, per framework: pytest and
unittest, Jest, Vitest, Mocha, Jasmine, AVA and node:test, Go, Rust, JUnit and RSpec. A skipped or
xfailed test is a failing test that no longer fails the suite, and a focused test (`it.only`,
`fit`) silently turns off every other test: a reviewer must see each one. Markers inside strings,
docstrings and comments, in generated files or code the project's own tools leave out as
someone else's (its linters' and pre-commit's `exclude`, `.gitattributes`), and markers the base
already had on the same test or statement (as a parser reads it: re-aligned by a formatter,
wrapped in a new block or `describe`, moved with their test, a test file split into a package)
are not flagged; the same marker whose condition was edited is a notice. A conditional skip
(`skipif`, `importorskip`, `skipIf`, `skipUnless`) on a test the base did not have is judged by
whether it skipped: a notice in the diff (`gate scan` does not run it), and in `gate run` a new
test the runs skipped is a finding that says what was missing. An unconditional skip, or a
skip added to an existing test, stays a finding. To resolve: fix the test instead; a marker
that must stay is a person's to approve on the pull request.

An allow comment on its line or the line above (`# gate: allow skip-markers -- <reason>`, `//`
in JavaScript, Go or Rust) counts only once a person has merged it: one the change writes lowers
nothing."""

_SEVERITY: dict[markers.Kind, Severity] = {
    "skip": "error", "xfail": "error", "focus": "error", "todo": "warning",
}
# A condition that always holds: an edited skip condition that skips everywhere is new.
_ALWAYS = re.compile(r"(?:skip(?:if|If)\((?:condition=)?(?:True|1|not\s*False)|"
                     r"skipUnless\((?:condition=)?(?:False|0|None))\s*[,)]")
_RAW = " (file did not parse; matched on raw text)"
_LEXED = " (file did not parse; strings and comments told apart by a lexer)"


def _scanned(ctx: DiffContext) -> list[ChangedFile]:
    """Files whose added lines may hold a marker: only these are read and parsed (any Python
    file with added lines: a marker may be spelled through an alias its imports make)."""
    return [
        f for f in ctx.files
        if f.new_lines and not f.binary and not f.symlink and f.status != "deleted"
        and (_may_hold(f) or markers.language_of(f.path) == "python")
        and not ctx.is_foreign(f.path)
    ]


def _may_hold(f: ChangedFile) -> bool:
    words = markers.keywords_for(f.path)
    return words is not None and any(words.search(line) for line in f.new_lines.values())


def _aliases(path: str, text: str) -> py_aliases.Aliases:
    """Python: the names the file gives pytest and unittest."""
    if markers.language_of(path) != "python":
        return py_aliases.NONE
    return py_aliases.aliases(text)


@dataclasses.dataclass(frozen=True)
class _Side:
    """One side of a file, read for markers."""

    path: str
    text: str
    split: Source | None
    rows: tuple[markers.Marker, ...]

    def found(self, lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, markers.Marker]]:
        """The markers on the numbered raw `lines`."""
        lexed = self.split is not None and self.split.lexed
        quick, words = markers.combined(self.rows), markers.keywords_for(self.path)
        aliases = _aliases(self.path, self.text)
        uses = aliases.uses()
        for number, added in lines:
            aliased = uses is not None and uses.search(added) is not None
            if words is None or not (words.search(added) or aliased):
                continue
            line = self.split.lines.get(number) if self.split is not None else None
            code = line.code if line is not None and lexed else added
            if aliased and uses is not None:
                code = aliases.resolve(number, code, uses)
            if quick.search(code):
                for marker in markers.find(self.rows, code):
                    yield number, marker


def _finding(path: str, number: int, marker: markers.Marker, note: str = "") -> Finding:
    return Finding(path, number, marker.id, marker.message + note,
                   severity=_SEVERITY[marker.kind], end_line=number)


def _side(ctx: DiffContext, ref: str, path: str, is_test: bool) -> _Side | None:
    text = ctx.text(ref, path)
    if text is None:
        return None
    split = ctx.source(path) if ref == ctx.head else source.split(path, text)
    return _Side(path, text, split, markers.for_file(path, is_test=is_test))


def _by_definition(ctx: DiffContext, changed: ChangedFile, head: _Side) -> list[Finding] | None:
    """The markers on added lines against the base's, by the definition or statement they
    belong to (`gate.lang.identity`); None when a side does not parse."""
    base_path = changed.moved_from or changed.path
    had_base = changed.status != "added" or changed.moved_from is not None
    base = _side(ctx, ctx.base, base_path, ctx.is_test_code(base_path)) if had_base else None
    head_anchors = identity.anchors(head.path, head.text, head.split)
    base_anchors = (identity.anchors(base.path, base.text, base.split)
                    if base is not None else None)
    if head_anchors is None or (had_base and base_anchors is None):
        return None
    pool: dict[tuple[str, Anchor], list[str]] = {}  # what each base marker says
    if base is not None and base_anchors is not None:
        for number, marker in base.found(enumerate(base.text.split("\n"), start=1)):
            pool.setdefault((marker.id, base_anchors.at(number)), []).append(
                base_anchors.words(number))
    added = changed.new_lines
    ours = [(number, marker, head_anchors.at(number))
            for number, marker in head.found(enumerate(head.text.split("\n"), start=1))]
    for number, marker, anchor in ours:  # lines left as they were hold the same markers
        if number not in added and pool.get((marker.id, anchor)):
            pool[(marker.id, anchor)].pop(0)
    known = ({_test_of(base_anchors.at(n)) for n in range(1, base.text.count("\n") + 2)}
             if base is not None and base_anchors is not None else set())
    own = {text.strip() for text in changed.removed.values()}
    fresh = ctx.fresh_lines(changed, context=1)
    findings = []
    for number, marker, anchor in ours:
        if number not in added:
            continue
        same = pool.get((marker.id, anchor))
        if same:
            said = head_anchors.words(number)
            old = same.pop(same.index(said) if said in same else 0)
            if old != said and _ALWAYS.search(said) and not _ALWAYS.search(old):
                findings.append(_finding(changed.path, number, marker,
                                         " (its condition edited to one that always holds)"))
            elif old != said:
                findings.append(dataclasses.replace(
                    _finding(changed.path, number, marker), severity="notice",
                    message=f"`{marker.id}` on the same test, its condition or arguments "
                    f"changed (strings aside): `{old}` -> `{said}`; not a new marker"))
        elif number in fresh or added[number].strip() in own:  # not from another file
            words = head_anchors.words(number)
            if marker.id in _CONDITIONAL and not _ALWAYS.search(words) and _on_new_test(
                    anchor, known, had_base):
                findings.append(_conditional(changed.path, number, marker))
            else:
                findings.append(_finding(changed.path, number, marker))
    return findings


# Markers that skip only where their condition holds (a missing module, platform, backend).
_CONDITIONAL = frozenset({"pytest.mark.skipif", "pytest.importorskip", "unittest.skipIf",
                          "unittest.skipUnless"})
_DEFINITION = re.compile(r"^(?:Async)?(?:Function|Class)Def (\w+)$")


def _test_of(anchor: Anchor) -> tuple[str, ...]:
    """The definitions a marker belongs to: its own (a decorator's), else those it lies in;
    () for the whole file."""
    own = _DEFINITION.match(anchor.statement)
    return (*anchor.scope, own.group(1)) if own else anchor.scope


def _on_new_test(anchor: Anchor, known: set[tuple[str, ...]], had_base: bool) -> bool:
    """Whether the marker is on a test the base did not have (a new file, for a module's)."""
    test = _test_of(anchor)
    return not had_base if not test else test not in known


def _conditional(path: str, number: int, marker: markers.Marker) -> Finding:
    return Finding(path, number, marker.id, f"`{marker.id}` on a new test: it skips only where "
                   "its condition holds (a module, platform or service missing). `gate scan` "
                   "does not run it; `gate run` reports it if it skipped in the judged runs",
                   severity="notice", end_line=number)


def _file_findings(ctx: DiffContext, changed: ChangedFile) -> list[Finding]:
    head = _side(ctx, ctx.head, changed.path, ctx.is_test_code(changed.path))
    if head is None:
        return []
    if head.split is not None and head.split.parsed:
        found = _by_definition(ctx, changed, head)
        if found is not None:
            return found
    split = head.split
    lexed = split is not None and split.lexed
    note = "" if split is None or split.parsed else _LEXED if lexed else _RAW
    fresh = ctx.fresh_lines(changed, context=1)  # a marker moved with the test under it: not new
    return [_finding(changed.path, number, marker, note)
            for number, marker in head.found((n, fresh[n]) for n in sorted(fresh))]


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
