"""GitHub workflow commands: one `::error file=…,line=…::message` per finding, the most
important first.

GitHub shows at most 10 annotations of each level (error, warning, notice) per step and drops
the rest without a word, so the order matters: runtime failures, removed tests, skip markers,
base-tests, then the other checks; errors before warnings before notices within each group.
`hidden` counts what GitHub will not show, for the job summary to say so.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence

from gate.models import CheckResult, Report, Severity
from gate.report import text

LIMIT_PER_LEVEL = 10  # per step, for each of error, warning and notice
_FIRST = ("install", "suite", "tests-removed", "skip-markers", "base-tests")
_LEVEL_ORDER = {"error": 0, "warning": 1, "notice": 2}
_BAD = ("failed", "timeout", "error")


@dataclasses.dataclass(frozen=True)
class Annotation:
    level: Severity
    title: str
    message: str
    path: str | None = None
    line: int | None = None
    end_line: int | None = None


def escape_data(text: str) -> str:
    """The message part of a workflow command (after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (`file=`, `title=`): also `:` and `,`, which end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, properties: Sequence[tuple[str, str]] = ()) -> str:
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def to_command(annotation: Annotation) -> str:
    props: list[tuple[str, str]] = []
    if annotation.path is not None:
        props.append(("file", annotation.path))
        if annotation.line is not None:
            line = max(annotation.line, 1)
            props.append(("line", str(line)))
            props.append(("endLine", str(max(annotation.end_line or line, line))))
    props.append(("title", annotation.title))
    return command(annotation.level, annotation.message, props)


def _group(check_id: str) -> int:
    return _FIRST.index(check_id) if check_id in _FIRST else len(_FIRST)


def _check_annotations(check: CheckResult) -> list[Annotation]:
    found = [
        Annotation(f.severity, f"gate {check.id}: {f.rule}", f.message, f.path, f.line,
                   f.end_line)
        for f in check.findings
    ]
    if check.status in _BAD and not check.findings:
        level: Severity = "error" if check.required else "warning"
        found.append(Annotation(level, f"gate {check.id}", f"{check.id} {check.status}: "
                                f"{check.summary}"))
    return found


def ordered(report: Report) -> list[Annotation]:
    """Every annotation of the report, the most important first."""
    keyed = [
        ((_group(check.id), _LEVEL_ORDER[a.level]), a)
        for check in report.checks
        for a in _check_annotations(check)
    ]
    return [a for _, a in sorted(keyed, key=lambda pair: pair[0])]


def groups(report: Report) -> list[str]:
    """A folded group per check for the step log (`::group::` ... `::endgroup::`): its line,
    its findings and its output. Every line inside starts with `| `: what the judged code
    printed can never be read as a workflow command (a `::stop-commands::` would silence the
    gate's annotations, an `::error` would forge one)."""
    lines: list[str] = []
    for check in report.checks:
        lines.append(f"::group::{escape_data(text.check_line(check))}")
        inside = [text.finding_line(check.id, f) for f in check.findings]
        inside += check.detail.splitlines()
        lines += [f"| {line}" for line in inside]  # not commands: shown as they are
        lines.append("::endgroup::")
    return lines


def hidden(items: Iterable[Annotation]) -> int:
    """How many of `items` GitHub drops: those past the first 10 of their level."""
    counts = Counter(a.level for a in items)
    return sum(max(0, n - LIMIT_PER_LEVEL) for n in counts.values())


def render(report: Report) -> str:
    """`--format github`: the workflow commands, then a plain line with the verdict."""
    items = ordered(report)
    lines = [to_command(a) for a in items]
    tail = f"gate: {report.verdict}, {len(items)} annotation(s)"
    dropped = hidden(items)
    if dropped:
        tail += (f"; GitHub shows {LIMIT_PER_LEVEL} per level and step, so {dropped} "
                 "are not shown as annotations")
    lines.append(tail)
    return "\n".join(lines) + "\n"
