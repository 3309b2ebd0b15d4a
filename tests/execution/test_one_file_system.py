"""A test command sees its checkout and its TMPDIR on one file system, as on a CI runner
(`Workspace.seen_whole`): sloria/environs's test moves the checkout's .env into `tmp_path`
and back, and every honest commit failed with "Invalid cross-device link" while the checkout
was an overlay of its own and TMPDIR a tmpfs of its own. A real gate run, 3 runs (run 3 cut
in pieces, each piece in a layer of its own)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import project

pytestmark = pytest.mark.slow

TEST_MOVE = """\
from pathlib import Path

HERE = Path(__file__).parent


def test_moves_a_file_of_the_checkout_away_and_back(tmp_path):
    (HERE / "data.txt").rename(tmp_path / "data.txt")
    assert not (HERE / "data.txt").exists()
    (tmp_path / "data.txt").rename(HERE / "data.txt")
    assert (HERE / "data.txt").read_text() == "kept\\n"
"""


@pytest.fixture(scope="module")
def moved(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    base = project(**{"tests/data.txt": "kept\n", "tests/test_move.py": TEST_MOVE})
    head: dict[str, str | None] = {"calc/__init__.py": project()["calc/__init__.py"] + "\n"}
    return gate_report(tmp_path_factory.mktemp("moved"), wheelhouse, base, head, "--runs", "3")


def test_a_file_moved_from_the_checkout_to_tmp_path_and_back(moved: dict[str, Any]) -> None:
    ran = check(moved, "suite")
    assert ran["status"] == "passed", ran["detail"]
    assert ran["summary"].startswith("3 of 3 runs passed, 3/3 tests")
    assert moved["isolation"]["level"] == "namespaces"
