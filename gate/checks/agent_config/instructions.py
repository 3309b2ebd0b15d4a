"""Instructions to agents (markdown and plain text) compared line by line: each change quoted,
shortened, at its line. A change that only mends spelling (each changed word one or two
letters off, no negation or number changed) or only re-wraps the text is a notice."""
from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from gate.checks.agent_config.runs_gate import runs_gate
from gate.models import Finding, Severity

QUOTED_LINES = 3
QUOTE_WIDTH = 80
MOST_FINDINGS = 8
_WORD = re.compile(r"\S+")
_NEGATIONS = frozenset({"not", "no", "never", "don't", "dont", "cant", "wont", "cannot", "can't",
                        "must", "mustn't", "should", "shouldn't", "may", "always", "only",
                        "skip", "without"})


def _short(line: str) -> str:
    text = line.strip()
    return text if len(text) <= QUOTE_WIDTH else text[:QUOTE_WIDTH - 1] + "…"


def _quote(sign: str, lines: Sequence[str]) -> str:
    shown = [f'{sign} "{_short(t)}"' for t in lines if t.strip()][:QUOTED_LINES]
    rest = len([t for t in lines if t.strip()]) - len(shown)
    return "; ".join(shown) + (f" (and {rest} more line(s))" if rest > 0 else "")


def _distance(a: str, b: str) -> int:
    """Edit distance with adjacent transpositions (`teh` -> `the` is 1), past 3 reported as 4."""
    if abs(len(a) - len(b)) > 3:
        return 4
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            swap = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + swap)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return min(d[-1][-1], 4)


def _normal(word: str) -> str:
    return word.strip(".,;:!?()[]*_`\"'").lower()


def _typo(old: str, new: str) -> bool:
    """Whether two words differ as a misspelling does: a letter or two, not a negation, a
    modal or a number."""
    a, b = _normal(old), _normal(new)
    if a == b:
        return True
    if a in _NEGATIONS or b in _NEGATIONS or "n't" in a + b:
        return False
    if any(c.isdigit() for c in a + b):
        return False
    return _distance(a, b) <= (1 if min(len(a), len(b)) <= 4 else 2)


def is_typo_fix(removed: Sequence[str], added: Sequence[str]) -> bool:
    """Whether the lines read the same word for word but for misspellings (or only re-wrap)."""
    old = [w for line in removed for w in _WORD.findall(line)]
    new = [w for line in added for w in _WORD.findall(line)]
    if len(old) != len(new):
        return False
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    return len(changed) <= 3 and all(_typo(a, b) for a, b in changed)


def compare(path: str, old: str, new: str, what: str) -> list[Finding]:
    """One finding per changed block of `path` (at most MOST_FINDINGS, the rest counted)."""
    before, after = old.splitlines(), new.splitlines()
    blocks = [op for op in difflib.SequenceMatcher(None, before, after, autojunk=False)
              .get_opcodes() if op[0] != "equal"]
    if not blocks:
        return []
    if is_typo_fix(before, after) and before:
        line = blocks[0][3] + 1
        return [Finding(path=path, line=min(line, max(len(after), 1)), rule="instructions",
                        severity="notice",
                        message=f"{what}: spelling or wrapping only, the words are the same")]
    findings = []
    for _, i1, i2, j1, j2 in blocks[:MOST_FINDINGS]:
        removed, added = before[i1:i2], after[j1:j2]
        if not any(t.strip() for t in removed + added):
            continue
        severity: Severity = "notice" if is_typo_fix(removed, added) else "warning"
        quoted = "; ".join(q for q in (_quote("-", removed), _quote("+", added)) if q)
        findings.append(Finding(path=path, line=min(j1 + 1, max(len(after), 1)),
                                rule="instructions", severity=severity,
                                message=f"{what}: {quoted}"))
    if len(blocks) > MOST_FINDINGS:
        findings.append(Finding(path=path, line=blocks[MOST_FINDINGS][3] + 1,
                                rule="instructions", severity="warning",
                                message=f"{what}: and {len(blocks) - MOST_FINDINGS} more "
                                "changed block(s)"))
    return findings


def gate_lines_removed(path: str, old: str, new: str) -> list[Finding]:
    """A line that ran the gate (a hook script's) and is no longer in the file."""
    kept = {line.strip() for line in new.splitlines()}
    gone = [line.strip() for line in old.splitlines()
            if runs_gate(line) and not line.lstrip().startswith("#")
            and line.strip() not in kept]
    return [Finding(path=path, line=1, rule="gate-hook-removed", severity="error",
                    message=f"a line that ran the gate was removed: \"{_short(line)}\": "
                    "the agent's work is no longer checked where it was")
            for line in gone]
