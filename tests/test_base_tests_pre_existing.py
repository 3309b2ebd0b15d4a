"""base-tests says nothing of a test that fails in the base's own run too: the change did not
alter what it pinned down. Seen on sloria/environs (a test failing at base and head alike, in
the boundary, read as "the change altered behaviour this test pinned down" beside the suite's
"[pre-existing: fails at base too]" for the same test). A real gate run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.pyproject_fixture import CALC, project
from test_runtime_identity import _gate, check

pytestmark = pytest.mark.slow

TEST_A = ("import os\n\nfrom calc import add\n\n\ndef test_env_dependent():\n"
          "    assert os.environ.get('NEVER_SET_BY_ANYONE') == '1'\n\n\n"
          "def test_add():\n    assert add(2, 3) == 5\n")
HEAD_TEST_A = TEST_A + "\n\ndef test_add_zero():\n    assert add(0, 3) == 3\n"


@pytest.fixture(scope="module")
def old_failure(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    base = project(**{"tests/test_a.py": TEST_A})
    head: dict[str, str | None] = {
        "tests/test_a.py": HEAD_TEST_A,
        "calc/__init__.py": CALC.replace("return a + b", "return b + a")}
    return _gate(tmp_path_factory.mktemp("old"), wheelhouse, base, head)


def test_a_test_failing_at_base_too_is_not_the_changes_doing(old_failure: dict[str, Any],
                                                             ) -> None:
    checked = check(old_failure, "base-tests")
    assert (checked["status"], checked["findings"]) == ("passed", [])
    assert checked["summary"] == (
        "2 base test file(s) (tests/test_a.py, tests/test_calc.py) pass on the head code, but "
        "for 1 test(s) that fail in the base's own run too "
        "(tests/test_a.py::test_env_dependent): not this change's doing")
    assert "[pre-existing: fails at base too]" in check(old_failure, "suite")["findings"][0][
        "message"]
