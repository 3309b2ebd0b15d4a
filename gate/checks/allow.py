"""Allow comments: `gate: allow <check-id> -- <reason>` on a finding's line or the line above
turns that finding into a notice that keeps the reason, for a reviewer to read.

A waiver is a person's. Only a comment already at the base, which a person merged, is honoured,
and it carries with its line's identity as the diff checks see "already there"
(`gate.vcs.moves`): the line it is on, unchanged or moved with its text whole, and for a comment
on the line above, that pair of lines moved together. A comment the change writes, or one it
moves onto another line, lowers nothing: the finding stays, shown with the reason the change
gave. `gate hook pre-commit` honours the committer's own comments (`DiffContext.own_allows`:
the author is at the keyboard) and says so.

The comment is read where the language has comments (never inside a string); in files the gate
does not parse (YAML, TOML, Makefiles) after a `#`, `//` or `<!--` on the line, so prose that
mentions the syntax (a README) is not read as one. `tests-removed` findings sit on base
lines that no longer exist, so they cannot be allowed; of `diff-policy`'s, only leftovers can
(a forbidden path needs a person), and diff-policy reads those comments itself, on a file's
first lines (gate/checks/leftovers/finder.py).
"""
from __future__ import annotations

import dataclasses
import re

from gate.engine.context import DiffContext
from gate.lang import languages
from gate.models import CheckResult, Finding

PATTERN = re.compile(r"\bgate:\s*allow\b[ \t]*(?P<check>[\w-]*)(?P<rest>.*)")
_REASON = re.compile(r"^\s*--\s*(?P<reason>.*?)\s*(?:\*/|-->)?\s*$")
NOT_ALLOWED = ("tests-removed", "diff-policy", "agent-config")
ALLOWABLE = ("skip-markers", "escapes", "check-config", "harness", "lockfiles", "diff-policy")


@dataclasses.dataclass(frozen=True)
class Allow:
    check: str  # "" when the comment names no check
    reason: str  # "" when it gives none


_COMMENT_START = re.compile(r"#|//|<!--")
_MARKUP = (".md", ".markdown", ".html", ".htm", ".xml", ".svg")  # only <!-- --> is a comment


def unparsed_comment(line: str, path: str = "") -> str:
    """The comment part of a line of a file the gate does not parse ("" if none): in
    Markdown and markup, an HTML comment only (a `# gate: allow` quoted in a doc's prose is
    no comment)."""
    m = (re.search("<!--", line) if path.lower().endswith(_MARKUP)
         else _COMMENT_START.search(line))
    return line[m.start():] if m else ""


def parse(comment: str) -> Allow | None:
    """The allow comment in `comment`, if any."""
    m = PATTERN.search(comment)
    if m is None:
        return None
    reason = _REASON.match(m.group("rest"))
    return Allow(m.group("check"), reason.group("reason") if reason else "")


def at(ctx: DiffContext, path: str, line: int) -> Allow | None:
    """The allow comment on head line `line` of `path`, read as a comment where possible."""
    split = ctx.source(path)
    if split is not None:
        entry = split.lines.get(line)
        return parse((entry.comment if split.lexed else entry.code) if entry else "")
    text = ctx.text(ctx.head, path)
    rows = text.split("\n") if text is not None else []
    return parse(unparsed_comment(rows[line - 1], path)) if 0 < line <= len(rows) else None


def _carried(ctx: DiffContext, path: str, line: int) -> bool:
    """Whether head line `line` of `path` is the base's: unchanged, or moved with its text whole."""
    f = next((f for f in ctx.files if f.path == path), None)
    return (f is None or line not in f.new_lines
            or line in ctx.moves().head.get(path, frozenset()))


def is_the_bases(ctx: DiffContext, path: str, comment: int, finding: int) -> bool:
    """Whether the allow comment on head line `comment` for a finding on line `finding` (the same
    line, or the one under it) was at the base with what it sits on: a person's waiver."""
    if comment == finding:
        return _carried(ctx, path, comment)
    f = next((f for f in ctx.files if f.path == path), None)
    if f is None or (comment not in f.new_lines and finding not in f.new_lines):
        return True
    together = ctx.moves(context=1).head.get(path, frozenset())  # the pair moved as one
    return comment in together and _carried(ctx, path, finding)


def waived(ctx: DiffContext, finding: Finding, allow: Allow, comment: int) -> Finding:
    """The finding under a well-formed allow comment on head line `comment`: a notice when the
    comment is a person's, else the same finding with the change's reason shown beside it."""
    if ctx.own_allows:
        return dataclasses.replace(finding, severity="notice",
                                   message=f"{finding.message} ({OWN}: {allow.reason})")
    if is_the_bases(ctx, finding.path, comment, finding.line):
        return dataclasses.replace(finding, severity="notice",
                                   message=f"{finding.message} (allowed: {allow.reason})")
    return dataclasses.replace(finding, message=f"{finding.message} ({SELF_WAIVED}: "
                                                f"{allow.reason})")


OWN = "allowed by this commit's own comment"
SELF_WAIVED = ("the change waives this itself, which only a person may: a person must approve "
               "it; its reason")


def _allowed(ctx: DiffContext, check_id: str, finding: Finding) -> Finding:
    for line in (finding.line, finding.line - 1):
        found = at(ctx, finding.path, line)
        if found is not None and found.check == check_id and found.reason:
            return waived(ctx, finding, found, line)
    return finding


def apply(ctx: DiffContext, check_id: str, result: CheckResult) -> CheckResult:
    """The check's result with allowed findings turned into notices; a check left with notices
    only has passed."""
    if check_id in NOT_ALLOWED or not result.findings:
        return result
    findings = tuple(_allowed(ctx, check_id, f) for f in result.findings)
    if result.status == "failed" and all(f.severity == "notice" for f in findings):
        result = dataclasses.replace(result, status="passed",
                                     summary=f"{result.summary}, all allowed by comments")
    return dataclasses.replace(result, findings=findings)


def spelled(path: str, check: str = "CHECK-ID") -> str:
    """An allow comment as `path` writes comments: `// gate: allow ...` in a .ts or .go file,
    `# gate: allow ...` in Python, TOML, YAML or a file the gate does not read."""
    found = languages.language_of(path)
    body = f"gate: allow {check} -- <reason>"
    if found is not None and found.lexer in ("c-like", "rust"):
        return f"// {body}"
    if path.lower().endswith((".md", ".html", ".xml")):
        return f"<!-- {body} -->"
    return f"# {body}"


def problem(allow: Allow, path: str = "") -> str | None:
    """Why an allow comment cannot be honoured, None when it can."""
    if allow.check not in ALLOWABLE:
        named = f"`{allow.check}` is not" if allow.check else "it names no"
        return (f"allow comment ignored: {named} check that can be allowed; write "
                f"`{spelled(path)}` with one of {', '.join(ALLOWABLE)}")
    if not allow.reason:
        return (f"allow comment for {allow.check} without a reason: add `-- why` so that a "
                "reviewer can judge it; the finding it sits on stays")
    return None
