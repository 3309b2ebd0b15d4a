"""What base-tests puts over the head checkout: the base's whole test tree where the change
touched it, and the base's Rust test modules over the head's source.

A test tree is a test directory (`tests/`, `test/`, `__tests__/`, `spec/`, `testdata/`,
snapshots; see `testfiles.test_tree`) that holds a changed file. In it every path that
differs between base and head takes the base's content (data, fixtures, snapshots, helpers,
`__init__.py`, conftest): what the head added goes, and so do files that git does not track
(what the install or the suite runs wrote there). A test file outside any tree is put back
alone, with the runner configs (conftest.py, jest/vitest/mocha configs) the change touched.
Where the base collects doctests, the base's examples are put back into the head's Python
sources that changed them, and those sources run. Every base test of a tree the change
touched runs, whatever was changed there (a test file
the head only adds can patch the code for every test of the session); for a test file
outside any tree, the base's tests in its directory.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import os
import posixpath
from collections.abc import Iterable

from gate.engine.context import DiffContext
from gate.lang import doctest_examples, rust_test_modules, testfiles
from gate.vcs import git

_RUNNER_CONFIGS = ("jest.config.*", "vitest.config.*", ".mocharc.*", "ava.config.*")


def is_runner_config(path: str) -> bool:
    name = posixpath.basename(path)
    return testfiles.is_test_infrastructure(path) or any(
        fnmatch.fnmatch(name, pattern) for pattern in _RUNNER_CONFIGS)


@dataclasses.dataclass(frozen=True)
class BaseTree:
    files: dict[str, bytes | None]  # path -> the base's content; None: removed for the run
    to_run: list[str]  # the base test files (and Rust sources with test modules) that run
    configs_changed: bool  # a runner config differs: the whole command runs


def _under(path: str, trees: Iterable[str]) -> bool:
    return any(path.startswith(t + "/") for t in trees)


def _reads(test: str, trees: Iterable[str]) -> bool:
    """Whether `test` may read a tree: it lies in it, or beside it when the tree is the data
    of the tests in its parent directory (Go's testdata, Jest's __snapshots__)."""
    directory = posixpath.dirname(test)
    return any(test.startswith(t + "/") or (posixpath.basename(t) in testfiles.BESIDE
                                            and posixpath.dirname(t) == directory)
               for t in trees)


def _is_unit_source(path: str) -> bool:
    """A Rust source outside any test tree: its tests are modules inside it."""
    return path.endswith(".rs") and testfiles.test_tree(path) is None


def _through_link(checkout: str, tree: str) -> bool:
    """Whether the way to `tree` passes a symlink (the head may point `tests` at `/`)."""
    parts = tree.split("/")
    return any(os.path.islink(os.path.join(checkout, *parts[:i]))
               for i in range(1, len(parts) + 1))


def _untracked(checkout: str, trees: list[str], tracked: set[str]) -> list[str]:
    """Files (and links) under the trees in the checkout that the head does not track. Read
    from the file system, not the checkout's git, which the judged code may have rewritten."""
    out = []
    for tree in trees:
        if _through_link(checkout, tree):
            continue  # the overlay replaces the link for the run: nothing of its own to list
        for where, dirs, names in os.walk(os.path.join(checkout, tree)):
            rel = os.path.relpath(where, checkout).replace(os.sep, "/")
            links = [d for d in dirs if os.path.islink(os.path.join(where, d))]
            out += [f"{rel}/{n}" for n in [*names, *links] if f"{rel}/{n}" not in tracked]
    return sorted(out)


def _rust_modules(ctx: DiffContext, sources: list[str]) -> dict[str, bytes]:
    """The head's sources with the base's test modules put back, where they differ."""
    base = ctx.read(ctx.base, sources)
    head = ctx.read(ctx.head, sources)
    out = {}
    for path in sources:
        head_text = head[path]
        if head_text is None:
            continue  # the code is gone: nothing to put the tests back over
        merged = rust_test_modules.put_back(base[path] or b"", head_text)
        if merged != head_text:
            out[path] = merged
    return out


def _doctests(ctx: DiffContext, sources: list[str]) -> dict[str, bytes]:
    """The head's Python sources with the base's doctest examples put back, where the head
    changed them."""
    base, head = ctx.read(ctx.base, sources), ctx.read(ctx.head, sources)
    out = {}
    for path in sources:
        old, new = base[path], head[path]
        if old is None or new is None:
            continue
        text = new.decode("utf-8", "replace")
        merged = doctest_examples.put_back(old.decode("utf-8", "replace"), text)
        if merged != text:
            out[path] = merged.encode()
    return out


def _collects_doctests(ctx: DiffContext, command: str) -> bool:
    return doctest_examples.collects_doctests(
        ctx.pytest_config(ctx.base).options.get("addopts", ""), command)


def plan(ctx: DiffContext, checkout: str, command: str = "") -> BaseTree:
    """What to put back and run; `command`, the test command, says whether doctests run."""
    changed = [path for _, path in git.changed_paths(ctx.repo, ctx.base, ctx.head)]
    trees = sorted({t for t in map(testfiles.test_tree, changed) if t})
    alone = [p for p in changed if not _under(p, trees) and not _is_unit_source(p)
             and (ctx.is_test_file(p) or is_runner_config(p))]
    trees += sorted({b for p in alone if ctx.is_test_file(p) for b in testfiles.beside(p)})
    in_trees = [p for p in changed if _under(p, trees)]
    files = dict(ctx.read(ctx.base, in_trees + alone))
    tracked = set(git.ls_files(ctx.repo, ctx.head))
    files.update({p: None for p in _untracked(checkout, trees, tracked) if p not in files})
    rust = _rust_modules(ctx, [p for p in changed if _is_unit_source(p)])
    files.update(rust)
    doctests = _doctests(ctx, [p for p in changed if p.endswith(".py") and p not in files
                               and not ctx.is_test_file(p)]) if _collects_doctests(
        ctx, command) else {}
    files.update(doctests)
    present = {p for p, blob in files.items() if blob is not None}
    to_run = {p for p in present if ctx.is_test_file(p) and not _is_unit_source(p)}
    touched = {t for t in trees for p in in_trees if p.startswith(t + "/")}
    folders = {posixpath.dirname(p) for p in alone if ctx.is_test_file(p)}
    if touched or folders:  # a test, helper or datum changed or added: the whole tree runs
        to_run |= {p for p in git.ls_files(ctx.repo, ctx.base)
                   if ctx.is_test_file(p) and not _is_unit_source(p)
                   and (_reads(p, touched) or (testfiles.test_tree(p) is None
                                               and posixpath.dirname(p) in folders))}
    helpers, shadows = _helpers(ctx, changed)
    files.update(ctx.read(ctx.base, sorted(helpers)))
    files.update({p: None for p in shadows})
    to_run |= {p for p in git.ls_files(ctx.repo, ctx.base) if ctx.is_test_file(p)
               and not _is_unit_source(p) and any(_in_scope(p, s) for s in helpers.values())}
    discovery = ctx.pytest_config(ctx.base)  # named on its command line, pytest runs it
    to_run = {p for p in to_run if not p.endswith(".py") or discovery.recurses_into(p)}
    return BaseTree(files, sorted(to_run | set(rust) | set(doctests)),
                    bool(helpers) or any(is_runner_config(p) for p in changed if p in files))


def _helpers(ctx: DiffContext, changed: list[str]) -> tuple[dict[str, str], list[str]]:
    """The base's test helpers of the package (`gate.lang.pytest_helpers`) that the change
    touched, with the directory whose tests load each: like a test file, each is put back from
    the base, and those tests run. And the files the head added that Python would import in
    a helper's place (`calc/testing/__init__.py` beside `calc/testing.py`): removed for the
    run, and the helper counts as touched."""
    found = ctx.test_helpers() if any(p.endswith(".py") for p in changed) else {}
    added = {p for p, blob in ctx.read(ctx.base, changed).items() if blob is None} if (
        found) else set()
    touched, shadows = {}, []
    for path, helper in found.items():
        mine = [p for p in helper.spellings() if p in added]
        if path in changed or mine:
            touched[path] = helper.scope
            shadows += mine
    return touched, sorted(shadows)


def _in_scope(path: str, scope: str) -> bool:
    return not scope or path.startswith(scope + "/")
