"""Which files hold tests, by the runners' own default discovery."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.lang import testfiles
from gate.pinned import sides
from gate.vcs import diff


@pytest.mark.parametrize(("path", "holds_tests"), [
    ("test.js", True),  # AVA's default, sindresorhus/p-map's one test file
    ("test-utils.mjs", True), ("src/test.ts", True), ("tests/index.js", True),
    ("test/calc.js", True), ("src/a.test.ts", True), ("src/__tests__/a.js", True),
    ("index.js", False), ("src/testing.js", False), ("src/attest.js", False),
    ("lib/contest-2.js", False),
])
def test_javascript_test_files(path: str, holds_tests: bool) -> None:
    assert testfiles.is_test_file(path, python_files=("test_*.py",)) is holds_tests


def test_a_change_to_test_js_is_a_test_change_not_code_to_mutate(tmp_path: Path) -> None:
    """sindresorhus/p-map 1af51b5 (honest): pinned mutated a delay in test.js (`50` -> `51`)
    and read the change as having no test."""
    repo, base, head = make_change(tmp_path / "r", {"index.js": "export const a = 1;\n",
                                                    "test.js": "test('a', () => {});\n"},
                                   {"index.js": "export const a = 2;\n",
                                    "test.js": "test('a', () => { delay(50); });\n"})
    ctx = DiffContext(repo=str(repo.path), base=base, head=head, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base, head))
    side = sides.read(ctx)
    assert side.tests == ["test.js"]
    assert [c.path for c in side.code] == ["index.js"]
