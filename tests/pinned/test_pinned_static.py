"""What pinned reads from the head's text alone: mutants shown equivalent, the guards around a
line, a docstring-only change, a test that reads the code's source (fast: no run)."""
from __future__ import annotations

import pytest

from gate.mutants import apply
from gate.pinned import equivalent, guards, same_code
from gate.pinned.source_reads import found_in_lines

TIDY = """\
def tidy(text, old, new, seen):
    if old in text:
        text = text.replace(old, new)
    if seen != 3:
        seen = 3
    if old in text:
        text = text.replace(new, old)
    if seen != 3:
        seen = 4
    if "\\t" in text or "\\n" in text:
        text = text.translate(TABLE)
    if "\\t" in text or "\\n" in old:
        text = text.translate(TABLE)
    return text, seen
"""


def _branch(text: str, line: int) -> bool:
    mutant = apply.per_line("m.py", text.encode(), {line})[line]
    assert mutant.kind == "branch"
    return equivalent.shown(mutant, text.encode())


def test_an_if_that_only_skips_what_changes_nothing_is_shown_equivalent() -> None:
    assert _branch(TIDY, 2) and _branch(TIDY, 4) and _branch(TIDY, 10)


def test_an_if_whose_body_changes_something_is_not() -> None:
    assert not _branch(TIDY, 6) and not _branch(TIDY, 8) and not _branch(TIDY, 12)


PLACES = """\
import os
import sys

try:
    import fastthing
except ImportError:
    fastthing = None


def f(x):
    if sys.version_info >= (3, 12):
        x = x + 1
    else:
        x = (x +
             2)
    if os.name == "nt":
        return x
    if fastthing is not None:
        return fastthing.f(x)
    if x > 3:
        return x
    return 0
"""


@pytest.mark.parametrize(("line", "guard", "statement"), [
    (12, "version", {12}), (14, "version", {14, 15}), (15, "version", {14, 15}),
    (17, "platform", {17}), (19, "optional-import", {19}), (21, None, {21}),
    (20, None, {20})])
def test_the_guard_around_a_line_and_its_statement(line: int, guard: str | None,
                                                   statement: set[int]) -> None:
    place = guards.place(PLACES.encode(), line)
    assert place is not None
    assert (place.guard, set(place.statement)) == (guard, statement)
    assert place.handlers == (frozenset({7}) if guard == "optional-import" else frozenset())


JOINED = """\
import sys


def f(x):
    if sys.platform != "win32" and x > 3:
        return x
    if sys.platform == "win32" or sys.platform.startswith("cyg"):
        return -x
    if not sys.version_info >= (3, 8):
        return 0
    return 1
"""


@pytest.mark.parametrize(("line", "guard"), [(6, None), (8, "platform"), (10, "version")])
def test_a_guard_excuses_only_itself_not_a_condition_joined_to_it(
        line: int, guard: str | None) -> None:
    """`if sys.platform != "win32" and <the real condition>` is no platform check: the tests
    take its branch or not like any other's (main excused any `if` naming `sys.platform`)."""
    place = guards.place(JOINED.encode(), line)
    assert place is not None and place.guard == guard
    mutants = apply.per_line("m.py", JOINED.encode(), {5, 7, 9})
    assert mutants[5].shown == "`if sys.platform != \"win32\" and x > 3` → `if True`"
    assert 7 not in mutants and 9 not in mutants  # a check and nothing else: no mutant


def test_only_docstrings_and_comments_changed_is_no_code_change() -> None:
    base = b'"""Mod."""\n\n\ndef f(x):\n    """Doc."""\n    return x  # c\n'
    assert same_code.only_docs("m.py", base, base.replace(b"Doc.", b"Docs.").replace(
        b"# c", b"# d").replace(b"Mod.", b"Module."))
    assert not same_code.only_docs("m.py", base, base.replace(b"return x", b"return -x"))
    assert not same_code.only_docs("m.py", base, base.replace(b'"""Doc."""', b"'x'\n    'y'"))
    assert not same_code.only_docs("m.js", base, base)


@pytest.mark.parametrize(("line", "what"), [
    ("    source = inspect.getsource(calc.clamp)", "reads the source of the code under test"),
    ("    assert calc.clamp.__code__.co_code == CODE", "reads the bytecode of the code under test"),
    ("    assert hash(calc.clamp.__code__) == H", "reads the bytecode of the code under test"),
    ("    data = Path(calc.__file__).read_bytes()", "reads or hashes a module's file"),
    ("    h = hashlib.sha256(open(calc.__file__, 'rb').read())",
     "reads or hashes a module's file"),
    # honest: the test's own file, a signature, a string or a comment naming getsource
    ("    with open(os.path.join(os.path.dirname(__file__), 'data.txt')) as f:", None),
    ("    assert calc.clamp.__code__.co_argcount == 3", None),
    ("    text = 'inspect.getsource(f)'  # getsource(", None),
])
def test_a_test_line_that_reads_the_code_as_text(line: str, what: str | None) -> None:
    assert found_in_lines("tests/test_x.py", {5: line}) == ([("tests/test_x.py", 5, what)]
                                                           if what else [])
