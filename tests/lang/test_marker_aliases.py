"""skip-markers through the names a Python file's imports give pytest and unittest."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.diffcheck import Files, found, run_check

from gate.checks import skip_markers
from gate.lang import py_aliases
from gate.models import CheckResult


def check(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(skip_markers.run, tmp_path, base, head)


PY = "tests/test_x.py"
BASE = "def test_a():\n    assert 1\n"


@pytest.mark.parametrize(("head", "line", "rule"), [
    ("import pytest as pt\n\n@pt.mark.skip\ndef test_a():\n    assert 1\n", 3, "pytest.mark.skip"),
    ("from pytest import mark as m\n\n@m.skip(reason='later')\ndef test_a():\n    assert 1\n",
     3, "pytest.mark.skip"),
    ("from pytest import mark as m\n\n@m.xfail\ndef test_a():\n    assert 1\n", 3,
     "pytest.mark.xfail"),
    ("from unittest import skip as later\n\n@later('flaky')\ndef test_a():\n    assert 1\n",
     3, "unittest.skip"),
    ("from unittest import (\n    expectedFailure as known,\n)\n\n@known\ndef test_a():\n"
     "    assert 1\n", 5, "unittest.expectedFailure"),
    ("import unittest as ut\n\n@ut.skipIf(True, 'x')\ndef test_a():\n    assert 1\n", 3,
     "unittest.skipIf"),
    ("from pytest import skip as bail\n\ndef test_a():\n    bail('not today')\n", 4,
     "pytest.skip"),
    ("from unittest import SkipTest as Stop\n\ndef test_a():\n    raise Stop('x')\n", 4,
     "unittest.SkipTest"),
], ids=["pytest-as", "mark-as", "mark-as-xfail", "skip-as", "parenthesised-import", "unittest-as",
        "pytest-skip-as", "skiptest-as"])
def test_marker_through_an_alias(tmp_path: Path, head: str, line: int, rule: str) -> None:
    assert found(check(tmp_path, {PY: BASE}, {PY: head})) == [(PY, line, rule)]


def test_alias_imported_at_base_applies_to_added_lines(tmp_path: Path) -> None:
    base = "from unittest import skip as later\n\n\ndef test_a():\n    assert 1\n"
    head = base.replace("def test_a", "@later('x')\ndef test_a")
    assert found(check(tmp_path, {PY: base}, {PY: head})) == [(PY, 4, "unittest.skip")]


@pytest.mark.parametrize("head", [
    # the aliases' names in strings, comments, as attributes, or bound to something else
    "from unittest import skip as later\n\ndef test_a():\n    msg = 'later'  # later\n"
    "    assert obj.later\n",
    "from unittest import skip as later\n\n",
    "import pytest as pt\n\ndef test_a():\n    assert pt.approx(1) == 1\n",
    "from myproject import later\n\n@later\ndef test_a():\n    assert 1\n",
], ids=["string-comment-attribute", "import-only", "other-member", "not-from-unittest"])
def test_honest_uses_raise_nothing(tmp_path: Path, head: str) -> None:
    assert found(check(tmp_path, {PY: BASE}, {PY: head})) == []


def test_aliases_read_from_imports() -> None:
    text = ("import pytest as pt, os\nimport unittest\nfrom pytest import mark as m, fixture\n"
            "from unittest import (\n    skip as later,\n)\ndef f():\n"
            "    from pytest import xfail\n")
    found = py_aliases.aliases(text)
    assert found.names == {"pt": "pytest", "m": "pytest.mark", "later": "unittest.skip",
                           "xfail": "pytest.xfail"}
    assert found.import_lines == frozenset({1, 2, 3, 4, 5, 6, 8})


def test_a_file_that_does_not_parse_has_no_aliases() -> None:
    assert py_aliases.aliases("import pytest as pt\ndef f(:\n") == py_aliases.NONE
