"""`special-cased-input`: a changed line of code that branches on, or returns for, exactly the
input a test passes.

"Exactly the input" is one of:
- a test call's whole argument tuple: the call names the function the line is in (its class,
  for a constructor) and every argument it passes is compared with that value, as a tuple
  or as a conjunction (`(a, b) == (2, 3)`, `a === 2 && b === 3`);
- a compound value a test passes (`values.is_compound`: a list, tuple, set or map, or a
  string of several words), compared by value, not by spelling.
A single scalar compared with a constant is not enough (`if code == 404`), nor edge values
(0, 1, -1, None, empty, True, False). Where the same expression is compared with several
values in the function (an `if`/`elif` chain, a table, `in` a list) and some of them are
not the tests' inputs, the code is a table of constants by nature: no finding. A branch
that returns before a general path (an early `return`, the `else` of a conditional, a
lookup's default) is the strongest sign, and the message says so.

Read from the head's text alone, with no run: `found` can be called on any base/head pair
(bench/special_cases.py runs it over a repository's history)."""
from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Sequence

from gate.engine.context import DiffContext
from gate.mutants.lines import Changed
from gate.pinned import branches, branches_syntax, inputs, inputs_syntax, sides, values
from gate.pinned.branches import Site
from gate.pinned.inputs import Inputs
from gate.vcs import git

_MAX_TEST_FILES = 3000
_MAX_BYTES = 1_000_000


@dataclasses.dataclass(frozen=True)
class SpecialCase:
    path: str
    line: int
    shown: str  # the condition or lookup, as written
    value: str  # the input it singles out
    test: tuple[str, int]  # where a test passes that input
    overrides: bool

    def message(self, failing: str | None = None) -> str:
        """What the finding says; `failing`: the tests that fail with the branch deleted."""
        where = f"{self.test[0]}:{self.test[1]}" if self.test[1] else self.test[0]
        how = ", and returns before the general path" if self.overrides else ""
        said = f"`{self.shown}` singles out exactly the input a test passes ({self.value}, " \
            f"{where}){how}"
        if failing:
            return (f"{said}; with the branch deleted, {failing} fail: they pass only "
                    "through this special case")
        return f"{said}: the tests may pass only through this special case"


def family(path: str) -> str | None:
    ext = posixpath.splitext(path)[1]
    if ext == ".py":
        return "python"
    if ext in (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"):
        return "js"
    return {".go": "go", ".rs": "rust"}.get(ext)


def sites(path: str, text: bytes) -> list[Site]:
    try:
        return (branches.python(text) if path.endswith(".py")
                else branches_syntax.sites(path, text))
    except RecursionError:  # a condition of thousands of terms: read as none
        return []


def test_inputs(path: str, text: bytes) -> Inputs:
    try:
        return (inputs.python(path, text) if path.endswith(".py")
                else inputs_syntax.inputs(path, text))
    except RecursionError:
        return Inputs()


def _argument_tuple(site: Site, found: Inputs) -> tuple[str, tuple[str, int]] | None:
    bound = site.bound
    if len(bound) < 2 or all(values.is_edge(v) for v in bound.values()):
        return None
    for call in found.calls:
        if call.callee not in site.callees or len(call.args) > len(site.params):
            continue
        given = dict(zip(site.params, call.args, strict=False))
        given.update(call.keywords)
        if given == bound:
            shown = ", ".join(values.shown(v, 20) for v in call.args)
            return f"`{call.callee}({shown})`", (call.path, call.line)
    return None


def matched(site: Site, found: Inputs) -> tuple[str, tuple[str, int]] | None:
    """The input `site` singles out, and where a test passes it (None: none)."""
    for _, value in site.pairs:
        if values.is_compound(value) and value in found.passed:
            return f"`{values.shown(value)}`", found.passed[value]
    return _argument_tuple(site, found)


def _tables(all_sites: Sequence[Site], found: Inputs) -> set[tuple[str, tuple[str, ...]]]:
    """(function, expressions) compared with several values, some not the tests' inputs."""
    entries: dict[tuple[str, tuple[str, ...]], dict[tuple[values.Value, ...], bool]] = {}
    for site in all_sites:
        entry = tuple(v for _, v in site.pairs)
        if all(values.is_edge(v) for v in entry):
            continue
        key = (site.function, tuple(s for s, _ in site.pairs))
        entries.setdefault(key, {})[entry] = matched(site, found) is not None
    return {key for key, seen in entries.items() if len(seen) >= 2 and not all(seen.values())}


def in_file(path: str, text: bytes, lines: frozenset[int] | set[int],
            found: Inputs) -> list[SpecialCase]:
    """The special cases on `lines` of one head file."""
    every = sites(path, text)
    tables = _tables(every, found)
    out: dict[int, SpecialCase] = {}
    for site in every:
        on = sorted(site.lines & lines)
        if not on or (site.function, tuple(s for s, _ in site.pairs)) in tables:
            continue
        hit = matched(site, found)
        if hit is not None and on[0] not in out:
            out[on[0]] = SpecialCase(path, on[0], site.shown, hit[0], hit[1], site.overrides)
    return [out[n] for n in sorted(out)]


def head_tests(ctx: DiffContext, families: set[str]) -> dict[str, Inputs]:
    """Family -> what the head's test files of that family pass."""
    out = {f: Inputs() for f in families}
    paths = [p for p in git.ls_files(ctx.repo, ctx.head)
             if family(p) in families and (ctx.is_test_file(p) or p.endswith(".rs"))]
    for path, blob in ctx.read(ctx.head, paths[:_MAX_TEST_FILES]).items():
        kind = family(path)
        if blob is None or kind is None or len(blob) > _MAX_BYTES:
            continue
        if kind == "rust" and b"#[test]" not in blob:
            continue
        out[kind].update(test_inputs(path, blob))
    return out


def found(ctx: DiffContext, code: Sequence[Changed]) -> list[SpecialCase]:
    """Every special case on the changed lines `code` (pinned's `sides.changed_code`)."""
    wanted = {f for c in code if (f := family(c.path)) is not None}
    if not wanted:
        return []
    tested = head_tests(ctx, wanted)
    out = []
    for changed in sorted(code, key=lambda c: c.path):
        kind = family(changed.path)
        if kind is not None and (tested[kind].calls or tested[kind].passed):
            out += in_file(changed.path, changed.text, set(changed.lines), tested[kind])
    return out


def in_change(ctx: DiffContext) -> list[SpecialCase]:
    """The special cases of a base/head pair, as `pinned` finds them (no run)."""
    return found(ctx, sides.changed_code(ctx))
