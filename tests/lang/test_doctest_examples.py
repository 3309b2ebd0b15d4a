"""The base's doctest examples put back over the head's code (issue 25)."""
from __future__ import annotations

from gate.lang import doctest_examples

BASE = '''"""Sums.

>>> add(2, 3)
5
"""


def add(a, b):
    """Add.

    >>> add(1, 1)
    2
    """
    return a + b


def plain():
    """No example."""
'''


def test_a_changed_example_is_put_back_and_the_code_kept() -> None:
    head = (BASE.replace(">>> add(1, 1)\n    2", ">>> add(1, 1)\n    0")
            .replace("return a + b", "return a - b").replace('"""No example."""', '"""Gone."""'))
    merged = doctest_examples.put_back(BASE, head)
    assert ">>> add(1, 1)\n    2" in merged
    assert "return a - b" in merged
    assert '"""Gone."""' in merged  # not an example: the head's stays
    assert doctest_examples.examples(merged) == doctest_examples.examples(BASE)


def test_an_unchanged_or_new_docstring_is_left_alone() -> None:
    head = BASE + '\n\ndef sub(a, b):\n    """>>> sub(1, 1)\n    0\n    """\n    return a - b\n'
    assert doctest_examples.put_back(BASE, head) == head


def test_examples_dropped_from_a_docstring_come_back() -> None:
    head = BASE.replace("Add.\n\n    >>> add(1, 1)\n    2\n    ", "Add two numbers.")
    assert ">>> add(1, 1)" in doctest_examples.put_back(BASE, head)


def test_what_collects_doctests() -> None:
    assert doctest_examples.collects_doctests("-ra --doctest-modules", "pytest")
    assert doctest_examples.collects_doctests([], "python -m doctest README.md")
    assert doctest_examples.collects_doctests("", "pytest --doctest-glob='*.rst'")
    assert not doctest_examples.collects_doctests("-ra", "python -m pytest -q")
