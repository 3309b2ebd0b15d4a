"""What `pinned` reads from the change: the head's new and changed tests, the base's code to
run them over, and the changed code lines that may get mutants.

The base's code is the base's version of every changed non-test source file (a file in a
language the gate reads, outside every test tree; a Rust source keeps the head's test
modules); everything else (manifests, data, the test tree) stays the head's. The package's
own test helpers (`gate.lang.pytest_helpers`) are test code, without mutants, but where code
changed they are put back with it: a fix in the package's pytest plugin is what the head's new
tests pin (pytest-dev/pyfakefs 9f38b89 fixes its plugin's pausing and tests it: with the head's
plugin over the base's code the new test passed, a false `passes-at-base`); a new test that
uses a fixture only the head's helper has fails there, as one that imports a new name."""
from __future__ import annotations

import dataclasses

from gate.engine.context import DiffContext
from gate.lang import generated, rust_test_modules, testfiles
from gate.lang.languages import language_of
from gate.mutants import apply
from gate.mutants.lines import Changed
from gate.pinned import same_code
from gate.vcs import attributes
from gate.vcs.diff import ChangedFile

_PUNCTUATION = " \t{}()[];,"


def _generated(ctx: DiffContext, path: str) -> bool:
    """Generated or vendored by its path or by the BASE's .gitattributes: a head that marks
    its own code generated does not take it out of the mutants. A module copy a go.mod
    `replace` points at is the project's own code (`third_party/x`)."""
    rules = ctx.attributes(ctx.base)
    return ((generated.is_generated(path) and not ctx.is_replacement(path))
            or attributes.marked(rules, path, attributes.GENERATED)
            or attributes.marked(rules, path, attributes.VENDORED))


def _is_unit_source(path: str) -> bool:
    """A Rust source outside every test tree: code, with its unit tests inside it."""
    return path.endswith(".rs") and testfiles.test_tree(path) is None


def _is_code(ctx: DiffContext, path: str) -> bool:
    return (language_of(path) is not None
            and (_is_unit_source(path) or not ctx.is_test_file(path))
            and testfiles.test_tree(path) is None and not testfiles.is_test_infrastructure(path)
            and not ctx.is_test_helper(path) and not _generated(ctx, path))


def _code_files(ctx: DiffContext) -> list[ChangedFile]:
    """The changed code files, but those changed only in docstrings and comments."""
    files = [f for f in ctx.files if not f.binary and not f.symlink and _is_code(ctx, f.path)]
    python = [f.path for f in files if f.path.endswith(".py") and f.status == "modified"]
    base, head = ctx.read(ctx.base, python), ctx.read(ctx.head, python)
    return [f for f in files
            if not (f.path in base and same_code.only_docs(f.path, base[f.path], head[f.path]))]


def head_tests(ctx: DiffContext) -> list[str]:
    """The test files the change added or changed, present at head."""
    return sorted(f.path for f in ctx.files if f.status != "deleted" and not f.symlink
                  and ctx.is_test_file(f.path) and not _is_unit_source(f.path))


def rust_tests_changed(ctx: DiffContext) -> list[str]:
    """Rust sources whose in-file test modules the change added or changed."""
    out = []
    for f in _code_files(ctx):
        if f.path.endswith(".rs") and f.status != "deleted":
            base = ctx.read(ctx.base, [f.path])[f.path] or b""
            head = ctx.read(ctx.head, [f.path])[f.path] or b""
            if rust_test_modules.put_back(base, head) != head:
                out.append(f.path)
    return out


def base_code(ctx: DiffContext) -> dict[str, bytes | None]:
    """Path -> the base's content (None: absent at base) of every changed code file; a Rust
    source with the head's test modules in it."""
    files = _code_files(ctx)
    paths = [f.moved_from or f.path for f in files] + [f.path for f in files]
    base = ctx.read(ctx.base, paths)
    head = ctx.read(ctx.head, paths)
    out: dict[str, bytes | None] = {}
    for f in files:
        was = base[f.path]
        if f.path.endswith(".rs") and was is not None and head[f.path] is not None:
            was = rust_test_modules.put_back(head[f.path] or b"", was)
        out[f.path] = was
        if f.moved_from and f.moved_from not in out:
            out[f.moved_from] = base[f.moved_from]
    if out:  # the base's helpers too: a plugin's fix is what the head's tests may pin
        helpers = [f.path for f in ctx.files if ctx.is_test_helper(f.path)]
        out.update(ctx.read(ctx.base, helpers))
    return out


def first_code_line(ctx: DiffContext) -> tuple[str, int] | None:
    """The first changed line of code: where a finding about the whole change is pinned."""
    for f in sorted(_code_files(ctx), key=lambda f: f.path):
        found = [n for n, text in f.new_lines.items() if text.strip(_PUNCTUATION)]
        if f.status != "deleted" and found:
            return f.path, min(found)
    return None


def changed_code(ctx: DiffContext) -> list[Changed]:
    """The changed lines of code (not blank, not only a comment or brackets; not in a Rust test
    module) of the files the gate makes mutants of."""
    out = []
    for f in _code_files(ctx):
        if f.status == "deleted" or not apply.mutable(f.path) or not f.new_lines:
            continue
        text = ctx.read(ctx.head, [f.path])[f.path]
        if text is None:
            continue
        parsed = ctx.source(f.path)
        lines = {n for n, text in f.new_lines.items() if text.strip(_PUNCTUATION) and (
            parsed is None or n not in parsed.lines
            or parsed.lines[n].code.strip(_PUNCTUATION))}
        if f.path.endswith(".rs"):
            for start, end in rust_test_modules.test_modules(text).values():
                first, last = text.count(b"\n", 0, start) + 1, text.count(b"\n", 0, end) + 1
                lines -= set(range(first, last + 1))
        if lines:
            out.append(Changed(f.path, text, frozenset(lines)))
    return out


@dataclasses.dataclass(frozen=True)
class Sides:
    tests: list[str]  # the head's new and changed test files
    rust_tests: list[str]  # Rust sources whose test modules changed (run by the whole command)
    base_code: dict[str, bytes | None]
    code: list[Changed]
    first_line: tuple[str, int] | None


def read(ctx: DiffContext) -> Sides:
    return Sides(head_tests(ctx), rust_tests_changed(ctx), base_code(ctx), changed_code(ctx),
                 first_code_line(ctx))
