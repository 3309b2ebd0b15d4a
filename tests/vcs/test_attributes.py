"""The root .gitattributes read as git matches it: generated and vendored marks."""
from __future__ import annotations

import pytest

from gate.vcs import attributes

RULES = attributes.parse(
    "# comment\n"
    "*.pb.js linguist-generated\n"
    "/dist/** linguist-generated=true\n"
    "docs/**/*.js linguist-vendored\n"
    "src/keep.pb.js -linguist-generated\n"
    "api.js linguist-generated=false\n"
    "*.png binary\n"
)


@pytest.mark.parametrize(("path", "generated", "vendored"), [
    ("a.pb.js", True, False),
    ("deep/er/a.pb.js", True, False),  # no slash: any depth
    ("src/keep.pb.js", False, False),  # a later line unsets it
    ("dist/a/b.js", True, False),
    ("src/dist/a.js", False, False),  # anchored at the root
    ("docs/a.js", False, True),  # **/ matches no directory too
    ("docs/x/y/a.js", False, True),
    ("api.js", False, False),
    ("logo.png", False, False),
])
def test_marked(path: str, generated: bool, vendored: bool) -> None:
    assert attributes.marked(RULES, path, attributes.GENERATED) is generated
    assert attributes.marked(RULES, path, attributes.VENDORED) is vendored


def test_newly_marked_ignores_unchanged_and_unsetting_rules() -> None:
    base = attributes.parse("*.pb.js linguist-generated\n")
    head = attributes.parse("*.pb.js linguist-generated\ntests/** linguist-vendored\n"
                            "src/a.js -linguist-generated\n")
    assert [r.text for r in attributes.newly_marked(base, head)] == ["tests/**"]
