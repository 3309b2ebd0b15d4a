"""`gate.lang.identity`: what a line belongs to, whatever the layout; and sequences paired by
what their items are, then by their place."""
from __future__ import annotations

import pytest

from gate.lang import identity, source
from gate.lang.identity import FILE, Anchor


def _at(path: str, text: str, line: int) -> Anchor:
    found = identity.anchors(path, text, source.split(path, text))
    assert found is not None
    return found.at(line)


def test_a_python_statement_reads_the_same_joined_or_split() -> None:
    one = "def f():\n    x = g(a, b)  # type: ignore\n"
    split = "def f():\n    x = g(\n        a,\n        b,  # type: ignore\n    )\n"
    assert _at("m.py", one, 2) == _at("m.py", split, 4) == Anchor(("f",), "x = g(a, b)")


def test_a_definition_is_its_name_whatever_its_signature() -> None:
    text = "class C:\n    def f(self, a):  # noqa: ARG002\n        return 1\n"
    assert _at("m.py", text, 2) == Anchor(("C",), "FunctionDef f")
    assert _at("m.py", text.replace("self, a", "self, a, b"), 2) == Anchor(("C",), "FunctionDef f")


def test_a_compound_statement_is_its_header() -> None:
    text = "for x in xs:  # type: ignore[misc]\n    pass\n"
    assert _at("m.py", text, 1) == Anchor((), "for x in xs:")


def test_a_stub_body_joined_onto_its_signature_is_the_body() -> None:
    before = "class P:\n    def f(\n        self,\n    ) -> int:\n        ...  # pragma: no cover\n"
    after = "class P:\n    def f(\n        self,\n    ) -> int: ...  # pragma: no cover\n"
    assert _at("m.py", before, 5) == _at("m.py", after, 4) == Anchor(("P", "f"), "...")


def test_a_comment_on_its_own_line_belongs_to_the_next_statement() -> None:
    text = "import os\n\n# noqa\nimport re\n"
    assert _at("m.py", text, 3) == Anchor((), "import re")
    assert _at("m.py", "x = 1\n# the end\n", 2) == FILE


def test_a_decorator_belongs_to_its_definition() -> None:
    text = "@pytest.mark.skipif(\n    cond,\n)\ndef test_x():\n    pass\n"
    assert _at("m.py", text, 1) == Anchor((), "FunctionDef test_x")


def test_an_else_clause_is_not_its_if() -> None:
    text = "if a:\n    x = 1\nelse:  # pragma: no cover\n    x = 2\n"
    assert _at("m.py", text, 1) != _at("m.py", text, 3)


@pytest.mark.parametrize(("path", "one", "split", "line"), [
    ("a.ts", "function f() {\n  const v = g(a as any, b);\n}\n",
     "function f() {\n  if (x) {\n    const v = g(\n      a as any,\n      b,\n    );\n  }\n}\n",
     4),
    ("a.go", "package p\n\nfunc f() {\n\tx := g(a, b) //nolint\n}\n",
     "package p\n\nfunc f() {\n\tx := g(\n\t\ta,\n\t\tb, //nolint\n\t)\n}\n", 6),
])
def test_tree_sitter_statements_read_the_same_reindented_and_split(
        path: str, one: str, split: str, line: int) -> None:
    assert _at(path, one, 2 if path.endswith(".ts") else 4) == _at(path, split, line)


def test_a_test_call_is_its_header_not_its_callback() -> None:
    before = "it.skip('reads', () => {\n  expect(1).toBe(1);\n});\n"
    after = "it.skip('reads', () => {\n  const v = 1;\n  expect(v).toBe(1);\n});\n"
    assert _at("a.test.js", before, 1) == _at("a.test.js", after, 1)


def test_no_anchors_for_a_file_that_does_not_parse() -> None:
    text = "def f(:\n"
    assert identity.anchors("m.py", text, source.split("m.py", text)) is None




def test_more_left_in_a_gap_are_paired_only_when_alike() -> None:
    old = ["checkout", "corepack enable", "npm install --engine-strict", "npm test"]
    new = ["checkout", "npm ci --engine-strict", "npm test"]
    assert identity.pair(old, new, [lambda s: s], alike=identity.words_alike) == (
        [(0, 0), (2, 1), (3, 2)], [1], [])


def test_without_place_nothing_is_paired_by_it() -> None:
    assert identity.pair(["a"], ["b"], [lambda s: s], by_place=False) == ([], [0], [0])


def test_one_left_on_each_side_of_a_gap_is_the_same_item_changed() -> None:
    assert identity.pair(["a", "b", "c"], ["a", "B", "c"], [lambda s: s]) == (
        [(0, 0), (1, 1), (2, 2)], [], [])
