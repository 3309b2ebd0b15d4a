"""Skip markers by the test or statement they belong to (`gate.lang.identity`): a marker whose
condition was re-aligned by a formatter or edited stays the marker that was there (an edited
condition is a notice); a marker put on a test that had none, or moved to another test, is
new."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks import skip_markers

_BEFORE = '''\
import sys

import pytest


@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX only")
def test_fork():
    assert True


def test_spawn():
    assert True
'''
# Black split the long decorator, and the reason was reworded.
_REALIGNED = '''\
import sys

import pytest


@pytest.mark.skipif(
    sys.platform == "win32", reason="fork is POSIX only, and so is the test's fixture"
)
def test_fork():
    assert True


def test_spawn():
    assert True
'''


def test_a_skip_marker_realigned_by_a_formatter_is_not_new(tmp_path: Path) -> None:
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": _REALIGNED})
    assert found(result) == []


def test_a_skip_condition_edited_on_the_same_test_is_a_notice(tmp_path: Path) -> None:
    edited = _BEFORE.replace('sys.platform == "win32"', 'sys.platform in ("win32", "cygwin")')
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": edited})
    assert [(f.line, f.rule, f.severity) for f in result.findings] == [
        (6, "pytest.mark.skipif", "notice")]
    assert "condition" in result.findings[0].message


def test_a_skip_marker_moved_to_another_test_is_new(tmp_path: Path) -> None:
    moved = _BEFORE.replace('@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX '
                            'only")\ndef test_fork', "def test_fork").replace(
        "def test_spawn", '@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX '
        'only")\ndef test_spawn')
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": moved})
    assert found(result) == [("tests/test_p.py", 10, "pytest.mark.skipif")]
    assert result.findings[0].severity == "error"


def test_a_second_skip_on_the_same_test_is_new(tmp_path: Path) -> None:
    twice = _BEFORE.replace("def test_fork", "@pytest.mark.skip\ndef test_fork")
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": twice})
    assert found(result) == [("tests/test_p.py", 7, "pytest.mark.skip")]


_JS_BEFORE = '''\
import { test } from "vitest";

test.skip("reads the cache", async () => {
  expect(await read()).toBe(1);
});
'''
_JS_AFTER = '''\
import { describe, test } from "vitest";

describe("cache", () => {
  test.skip("reads the cache", async () => {
    const value = await read();
    expect(value).toBe(1);
  });

  test.skip("writes the cache", async () => {
    expect(await write()).toBe(1);
  });
});
'''


def test_a_skipped_test_wrapped_in_a_describe_is_not_new(tmp_path: Path) -> None:
    result = run_check(skip_markers.run, tmp_path, {"src/cache.test.ts": _JS_BEFORE},
                       {"src/cache.test.ts": _JS_AFTER})
    assert found(result) == [("src/cache.test.ts", 9, "test.skip")]  # the new test only


def test_a_skip_marker_on_a_test_whose_signature_changed_is_not_new(tmp_path: Path) -> None:
    # pallets/click cfa01eeb: `tmp_path` added to a skipped test's arguments, the test moved
    marked = '@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX only")\n'
    head = _BEFORE.replace(marked + "def test_fork():\n    assert True\n\n\n", "") + (
        "\n\n" + marked + "def test_fork(tmp_path):\n    assert tmp_path\n")
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": head})
    assert [(f.line, f.severity) for f in result.findings] == [(10, "notice")]


def test_a_skip_condition_edited_to_always_hold_is_new(tmp_path: Path) -> None:
    edited = _BEFORE.replace('sys.platform == "win32"', "True")
    result = run_check(skip_markers.run, tmp_path, {"tests/test_p.py": _BEFORE},
                       {"tests/test_p.py": edited})
    assert [(f.line, f.rule, f.severity) for f in result.findings] == [
        (6, "pytest.mark.skipif", "error")]
    assert "always holds" in result.findings[0].message
