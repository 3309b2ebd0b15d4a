"""A small Python project, written by tests: a package, its tests, its pyproject."""
from __future__ import annotations

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "calc"
version = "0.1.0"

[project.optional-dependencies]
test = ["pytest"]

[tool.setuptools]
packages = ["calc"]
"""

CALC = """\
def add(a, b):
    return a + b


def sub(a, b):
    return a - b
"""

TEST_CALC = """\
from calc import add, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(5, 3) == 2
"""


def project(**overrides: str | None) -> dict[str, str | None]:
    files: dict[str, str | None] = {
        "pyproject.toml": PYPROJECT,
        "calc/__init__.py": CALC,
        "tests/test_calc.py": TEST_CALC,
    }
    files.update(overrides)
    return files
