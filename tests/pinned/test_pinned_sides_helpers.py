"""pinned reads the package's own test helpers as tests: the head's helper stays under the
head's tests over the base's code, and gets no mutants (real repositories)."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.pinned import sides
from gate.vcs import diff

HELPER = "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n"
BASE: dict[str, str | None] = {
    "calc/__init__.py": "def add(a, b):\n    return a + b\n", "calc/testing.py": HELPER,
    "tests/conftest.py": "pytest_plugins = ['calc.testing']\n",
    "tests/test_zero.py": "def test_zero(zero):\n    assert zero == 0\n"}


def test_a_helper_is_neither_base_code_nor_mutated(tmp_path: Path) -> None:
    """The head adds a fixture to the helper and code the new test uses: over the base's code
    the test still finds its fixture (it fails for the code it tests, not for a fixture the
    base's helper lacks), and the fixture's lines are the test's, not code to mutate."""
    repo, base_sha, head_sha = make_change(tmp_path / "r", BASE, {
        "calc/__init__.py": "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n",
        "calc/testing.py": HELPER + "\n\n@pytest.fixture\ndef one():\n    return 1\n",
        "tests/test_neg.py": "from calc import neg\n\n\ndef test_neg(one):\n"
                             "    assert neg(one) == -1\n"})
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    side = sides.read(ctx)
    assert side.tests == ["tests/test_neg.py"]
    assert list(side.base_code) == ["calc/__init__.py"]
    assert [c.path for c in side.code] == ["calc/__init__.py"]
    assert side.first_line == ("calc/__init__.py", 5)
