"""The base test files base-tests names: those that define a test. A helper under test/ (a
uvu or tap project's) defines none and was listed as a test (lukeed/kleur)."""
from __future__ import annotations

from pathlib import Path

from gate.checks import base_tests

SPEC = b"import { test } from 'uvu';\ntest('red', () => {});\ntest.run();\n"
HELPER = b"export function strip(s) {\n  return s.replace(/\\x1b\\[\\d+m/g, '');\n}\n"


def test_a_helper_under_test_is_not_named_as_a_test(tmp_path: Path) -> None:
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "utils.js").write_bytes(HELPER)
    files = {"test/colors.js": SPEC}
    assert base_tests._defining(["test/colors.js", "test/utils.js"], files, str(tmp_path)) == [
        "test/colors.js"]


def test_a_file_the_gate_cannot_read_is_named(tmp_path: Path) -> None:
    """A language testdefs does not read, a file that is not there, a Python file that does
    not parse: named, since the gate cannot tell."""
    files = {"test/a.sh": b"echo hi\n", "tests/test_b.py": b"def test_b(:\n"}
    assert base_tests._defining(["test/a.sh", "tests/test_b.py", "test/gone.js"], files,
                                str(tmp_path)) == ["test/a.sh", "tests/test_b.py", "test/gone.js"]
