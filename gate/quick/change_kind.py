"""Which kind of change a diff is, for `gate run --quick`: code and tests (a bug fix), code
only, tests only, docs only, or nothing. A file is a test (by the base's discovery rules, or
in a test tree, or a conftest), a doc (Markdown, reST, AsciiDoc, a README/LICENSE/CHANGELOG,
anything under docs/ or doc/), or else code: sources, manifests and config alike, since any
of them can change what the code does."""
from __future__ import annotations

import posixpath
from typing import Literal

from gate.engine.context import DiffContext
from gate.lang import testfiles

Kind = Literal["code+tests", "code", "tests", "docs", "none"]
Role = Literal["code", "tests", "docs"]

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".asciidoc")
DOC_STEMS = ("readme", "license", "licence", "copying", "changelog", "changes", "history",
             "news", "authors", "contributors", "notice", "contributing", "code_of_conduct")
DOC_DIRS = ("docs", "doc")

DESCRIPTIONS: dict[Kind, str] = {
    "code+tests": "a bug fix (it changes code and a test)",
    "code": "a code change without a test change",
    "tests": "a change to tests only",
    "docs": "a change to docs only",
    "none": "no change",
}


def _is_doc(path: str) -> bool:
    name = posixpath.basename(path).lower()
    stem, ext = posixpath.splitext(name)
    return (ext in DOC_SUFFIXES or stem in DOC_STEMS or path.split("/")[0] in DOC_DIRS)


def _is_test(ctx: DiffContext, path: str) -> bool:
    if testfiles.test_tree(path) is not None or testfiles.is_test_infrastructure(path):
        return True
    if ctx.is_test_helper(path):  # the package's own pytest plugin or fixtures
        return True
    if path.endswith(".rs"):  # every Rust file may hold tests: outside a test tree, code
        return False
    return ctx.is_test_file(path)


def role(ctx: DiffContext, path: str) -> Role:
    if _is_test(ctx, path):
        return "tests"
    return "docs" if _is_doc(path) else "code"


def of(ctx: DiffContext) -> Kind:
    """The kind of the change in `ctx`, from its changed files."""
    roles = {role(ctx, f.path) for f in ctx.files}
    if {"code", "tests"} <= roles:
        return "code+tests"
    if "code" in roles:
        return "code"
    if "tests" in roles:
        return "tests"
    return "docs" if roles else "none"
