"""tests-removed: test definitions present at base and absent at head."""
from __future__ import annotations

import dataclasses
import difflib
from collections import Counter, defaultdict

from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.lang import generated
from gate.lang.testdefs import Extraction, extract
from gate.models import CheckResult, Finding
from gate.vcs import attributes
from gate.vcs.diff import ChangedFile

ID = "tests-removed"
TITLE = "No tests removed"
EXPLANATION = """\
Flags test definitions that exist at the base and no longer exist at the head: a test function
deleted or renamed, a test file deleted, or a test file moved where the runner no longer finds it
(judged by the base's discovery rules, such as pytest's python_files). Python, JavaScript and
TypeScript, Go, Rust, JUnit (Java, Kotlin) and RSpec tests are read. Tests are matched by name
across the changed files, so a test moved to another test file is not flagged. A reviewer cares
because deleting the test that fails is the cheapest way to make a suite pass. To resolve: restore
the test, or, if it truly is obsolete, say why in the pull request so that a person can agree."""


RENAME_SIMILARITY = 0.6  # difflib's ratio from which a new name reads as the old one renamed


@dataclasses.dataclass(frozen=True)
class _Occurrence:
    path: str
    name: str
    line: int


@dataclasses.dataclass
class _Side:
    occurrences: list[_Occurrence] = dataclasses.field(default_factory=list)
    errors: dict[str, str] = dataclasses.field(default_factory=dict)  # path -> parse error

    def add(self, path: str, found: Extraction) -> None:
        self.occurrences.extend(_Occurrence(path, d.name, d.line) for d in found.defs)
        if found.error is not None:
            self.errors[path] = found.error

    def counts(self) -> Counter[str]:
        return Counter(o.name for o in self.occurrences)

    def pairs(self) -> Counter[tuple[str, str]]:
        return Counter((o.path, o.name) for o in self.occurrences)


def _read(ctx: DiffContext, ref: str, paths: list[str]) -> dict[str, str]:
    blobs = ctx.read(ref, paths)
    return {p: b.decode("utf-8", "replace") for p, b in blobs.items() if b is not None}


def _missing(base: _Side, head: _Side, removed: set[tuple[str, int]]) -> list[_Occurrence]:
    """Base occurrences not matched at head: by name over all changed files, counted.

    Occurrences whose (file, name) pair is gone from the head come first; then, where a file
    holds fewer of a name than before, those on lines the diff removed."""
    shortfall = base.counts() - head.counts()
    head_pairs = head.pairs()
    per_file_left = base.pairs() - head_pairs
    ordered = sorted(base.occurrences, key=lambda o: (
        head_pairs[(o.path, o.name)] > 0, (o.path, o.line) not in removed))
    missing: list[_Occurrence] = []
    for occ in ordered:
        key = (occ.path, occ.name)
        if shortfall[occ.name] > 0 and per_file_left[key] > 0:
            missing.append(occ)
            shortfall[occ.name] -= 1
            per_file_left[key] -= 1
    return missing


def _renamed_describes(missing: list[_Occurrence], head: _Side,
                       base_names: set[str]) -> list[_Occurrence]:
    """The missing tests less those whose own title lives on under renamed describes, as
    the run-time side keeps them (`identity.py`): `cookie.parse(str) > ignores OWS` as
    `cookie.parseCookie > ignores OWS` (jshttp/cookie 6fea506 renamed an API with its spec
    files). Matched one to one, against tests new at head only."""
    titles = Counter(o.name.rsplit(" > ", 1)[-1] for o in head.occurrences
                     if " > " in o.name and o.name not in base_names)
    left = []
    for occ in missing:
        title = occ.name.rsplit(" > ", 1)[-1]
        if " > " in occ.name and titles[title] > 0:
            titles[title] -= 1
        else:
            left.append(occ)
    return left


def _class_tests(side: _Side, path: str) -> dict[str, set[str]]:
    """A Python test file's test classes: class path -> the names of its tests."""
    out: dict[str, set[str]] = defaultdict(set)
    for o in side.occurrences:
        if o.path == path and path.endswith(".py") and "." in o.name:
            cls, _, test = o.name.rpartition(".")
            out[cls].add(test.split("[")[0])
    return out


def _renamed_classes(missing: list[_Occurrence], base: _Side,
                     head: _Side) -> list[_Occurrence]:
    """The missing tests less those of a Python test class renamed with all its tests, two
    or more, in the same file (`TestLtLeGeGt` to `TestLtLeGeGtNe`, python-attrs/attrs
    5aa76a44): its class is gone at head, and a class new at head holds every one of them.
    One test moved to another class is still removed."""
    left = []
    renamed: dict[tuple[str, str], bool] = {}
    for occ in missing:
        cls = occ.name.rpartition(".")[0] if occ.path.endswith(".py") else ""
        key = (occ.path, cls)
        if cls and key not in renamed:
            before, after = _class_tests(base, occ.path), _class_tests(head, occ.path)
            renamed[key] = cls not in after and len(before[cls]) >= 2 and any(
                name not in before and before[cls] <= tests for name, tests in after.items())
        if not renamed.get(key, False):
            left.append(occ)
    return left


def _message(occ: _Occurrence, head: _Side, uncollected: _Side,
             gone: dict[str, str], new_by_file: dict[str, list[str]]) -> str:
    moved_to = sorted({o.path for o in uncollected.occurrences if o.name == occ.name})
    if moved_to:
        return (f"test `{occ.name}` is no longer collected: {moved_to[0]} is not a test file "
                "by the discovery rules")
    text = f"test `{occ.name}` was removed (present at base, absent at head)"
    if occ.path in gone:
        text += f"; {occ.path} {gone[occ.path]}"
    elif occ.path in head.errors:
        text += (f"; {occ.path} does not parse at head ({head.errors[occ.path]}), "
                 "so its tests could not be read")
    best = _closest(occ.name, new_by_file.get(occ.path, []))
    if best is not None:
        text += f"; new in the same file: `{best}` (a likely rename)"
    return text


def _closest(name: str, candidates: list[str]) -> str | None:
    """The new name most like `name` (a rename keeps most of it), None when none is close."""
    scored = [(difflib.SequenceMatcher(None, name, c).ratio(), -i, c)
              for i, c in enumerate(candidates)]
    best = max(scored, default=None)
    return best[2] if best is not None and best[0] >= RENAME_SIMILARITY else None


def _gone(files: list[ChangedFile]) -> dict[str, str]:
    """Why a regular file is absent at head, by path."""
    links = {f.path for f in files if f.symlink}
    return {f.path: "was replaced by a symlink" if f.path in links else "was deleted"
            for f in files if f.status == "deleted" and not f.symlink}


def _generated(ctx: DiffContext, path: str) -> bool:
    """Generated or vendored (by its path, or the BASE's .gitattributes): not tests of this
    project. The head's marks do not count: a head cannot hide a removed test by marking its
    file generated."""
    rules = ctx.attributes(ctx.base)
    return (generated.is_generated(path) or attributes.marked(rules, path, attributes.GENERATED)
            or attributes.marked(rules, path, attributes.VENDORED))


def run(ctx: DiffContext) -> CheckResult:
    # Symlinks and binaries are never read as source; a type change (file -> symlink) is a
    # deleted regular file plus an added symlink, so its base tests still count.
    files = [f for f in ctx.files if not f.binary]
    base_paths = list(dict.fromkeys(f.path for f in files if f.status != "added"
                                    and not f.symlink and not _generated(ctx, f.path)))
    head_paths = list(dict.fromkeys(f.path for f in files if f.status != "deleted"
                                    and not f.symlink and not _generated(ctx, f.path)))
    base, head, uncollected = _Side(), _Side(), _Side()
    for path, text in _read(ctx, ctx.base, base_paths).items():
        if ctx.is_test_code(path):
            base.add(path, extract(path, text))
    if not base.occurrences:  # nothing could have been removed: the head need not be read
        head_paths = []
    for path, text in _read(ctx, ctx.head, head_paths).items():
        (head if ctx.is_test_code(path) else uncollected).add(path, extract(path, text))
    base_names = set(base.counts())
    new_by_file: dict[str, list[str]] = defaultdict(list)
    for occ in head.occurrences:
        if occ.name not in base_names and occ.name not in new_by_file[occ.path]:
            new_by_file[occ.path].append(occ.name)
    removed = {(f.path, line) for f in files for line in f.removed}
    gone = _gone(files)
    findings = [
        Finding(occ.path, occ.line, "test-removed",
                _message(occ, head, uncollected, gone, new_by_file), severity="error")
        for occ in _renamed_classes(_renamed_describes(_missing(base, head, removed), head,
                                                       set(base.counts())), base, head)
    ]
    return from_findings(ID, TITLE, findings, clean="no test definitions removed",
                         found="{n} test definition(s) removed")
