"""Which Go packages of a repository are test helpers: what goes into the test binaries and
into nothing else. Read from the files as git holds them (a `go.mod` per module, each
`.go` file's imports), so the base's helpers are known without a checkout.

A package of the repository is a test helper when test code imports it and production code
does not: some `_test.go` file outside its directory (or another helper) imports it, no
non-test file of a package that is not a helper does, and it is test code by what it is,
not what it is called: it imports `testing`, or has no tests of its own (a package of the
project's API has its own tests; `internal/testutil` is tested through the tests that use
it). Build constraints are not read: an import under any tag counts, which can only make a
package production code.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence

_MODULE = re.compile(rb"^module\s+\"?([^\s\"]+)", re.M)
_ONE = re.compile(rb"^import\s+(?:[\w.]+\s+)?\"([^\"]+)\"", re.M)
_BLOCK = re.compile(rb"^import\s*\((.*?)^\)", re.M | re.S)
_IN_BLOCK = re.compile(rb"^\s*(?:[\w.]+\s+)?\"([^\"]+)\"", re.M)
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)


def imports(text: bytes) -> set[str]:
    """The import paths a Go file names."""
    text = _COMMENT.sub(b"", text)
    found = {m.group(1) for m in _ONE.finditer(text)}
    for block in _BLOCK.finditer(text):
        found |= {m.group(1) for m in _IN_BLOCK.finditer(block.group(1))}
    return {f.decode("utf-8", "replace") for f in found}


def _modules(read: Mapping[str, bytes | None]) -> dict[str, str]:
    """Each module's directory ("" at the root) and path."""
    out = {}
    for path, blob in read.items():
        if posixpath.basename(path) == "go.mod" and blob is not None:
            match = _MODULE.search(blob)
            if match:
                out[posixpath.dirname(path)] = match.group(1).decode("utf-8", "replace")
    return out


def _import_path(directory: str, modules: Mapping[str, str]) -> str | None:
    owner = max((d for d in modules if d == "" or directory == d
                 or directory.startswith(d + "/")), key=len, default=None)
    if owner is None:
        return None
    rest = directory[len(owner):].lstrip("/")
    return modules[owner] + ("/" + rest if rest else "")


def helpers(read: Callable[[Sequence[str]], Mapping[str, bytes | None]],
            files: Sequence[str]) -> frozenset[str]:
    """The non-test `.go` files of the test helper packages among `files` (read by `read`)."""
    go = [f for f in files if f.endswith(".go") or posixpath.basename(f) == "go.mod"]
    if not any(posixpath.basename(f) == "go.mod" for f in go):
        return frozenset()
    blobs = read(go)
    modules = _modules(blobs)
    directory = {}  # import path -> directory
    for f in go:
        if f.endswith(".go"):
            path = _import_path(posixpath.dirname(f), modules)
            if path is not None:
                directory[path] = posixpath.dirname(f)
    by_tests: dict[str, set[str]] = {}  # package -> directories whose tests import it
    by_code: dict[str, set[str]] = {}  # package -> directories whose code imports it
    uses_testing: set[str] = set()
    tested: set[str] = set()
    for f in go:
        blob = blobs.get(f)
        if not f.endswith(".go") or blob is None:
            continue
        where = posixpath.dirname(f)
        named = imports(blob)
        is_test = f.endswith("_test.go")
        if is_test:
            tested.add(where)
        elif "testing" in named:
            uses_testing.add(where)
        for path in named & directory.keys():
            if directory[path] != where:
                (by_tests if is_test else by_code).setdefault(path, set()).add(where)
    found: set[str] = set()
    while True:  # a package only helpers' code imports is a helper too
        more = {directory[p] for p in by_tests.keys() | by_code.keys()
                if directory[p] not in found
                and (by_tests.get(p) or by_code.get(p, set()) & found)
                and by_code.get(p, set()) <= found
                and (directory[p] in uses_testing or directory[p] not in tested)}
        if not more:
            break
        found |= more
    return frozenset(f for f in go if f.endswith(".go") and not f.endswith("_test.go")
                     and posixpath.dirname(f) in found)

