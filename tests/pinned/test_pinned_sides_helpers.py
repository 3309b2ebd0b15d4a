"""pinned reads the package's own test helpers as tests: no mutants, no finding pinned there,
and a change to a helper alone is no code change; where code changed, the base's helper comes
back with the base's code (real repositories)."""
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


def test_a_helper_gets_no_mutants_and_comes_back_with_the_base_code(tmp_path: Path) -> None:
    """The head changes the code, a fixture of the helper and a test: the fixture's lines are
    the tests', not code to mutate, nor where a finding is pinned; over the base's code the
    base's helper comes back with it, since a fix in the package's plugin is what the head's
    tests pin (pytest-dev/pyfakefs 9f38b89)."""
    repo, base_sha, head_sha = make_change(tmp_path / "r", BASE, {
        "calc/__init__.py": "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n",
        "calc/testing.py": HELPER + "\n\n@pytest.fixture\ndef one():\n    return 1\n",
        "tests/test_neg.py": "from calc import neg\n\n\ndef test_neg(one):\n"
                             "    assert neg(one) == -1\n"})
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    side = sides.read(ctx)
    assert side.tests == ["tests/test_neg.py"]
    assert side.base_code == {"calc/__init__.py": BASE["calc/__init__.py"].encode(),
                              "calc/testing.py": HELPER.encode()}
    assert [c.path for c in side.code] == ["calc/__init__.py"]
    assert side.first_line == ("calc/__init__.py", 5)


def test_a_change_to_the_helper_alone_is_no_code(tmp_path: Path) -> None:
    repo, base_sha, head_sha = make_change(tmp_path / "r", BASE, {
        "calc/testing.py": HELPER + "\n\n@pytest.fixture\ndef one():\n    return 1\n"})
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    side = sides.read(ctx)
    assert (side.base_code, side.code, side.first_line) == ({}, [], None)
