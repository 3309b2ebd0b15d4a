"""base-tests says nothing of a test that fails in the base's own run too: the change did not
alter what it pinned down. Seen on sloria/environs (a test failing at base and head alike, in
the boundary, read as "the change altered behaviour this test pinned down" beside the suite's
"[pre-existing: fails at base too]" for the same test). A real gate run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import CALC, project

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
    return gate_report(tmp_path_factory.mktemp("old"), wheelhouse, base, head)


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


TEST_B = ("import os\n\nfrom calc import add\n\n\ndef test_add_then_env():\n"
          "    assert add(2, 3) == 5 and os.environ.get('NEVER_SET_BY_ANYONE') == '1'\n")


@pytest.fixture(scope="module")
def another_way(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """The twin: the test fails at base (an AssertionError), and on the head code otherwise
    (the change makes `add` raise): that is the change's doing. So is a base test a head
    command made fail beside it (a port held: an OSError), which this stands for."""
    base = project(**{"tests/test_b.py": TEST_B})
    head: dict[str, str | None] = {
        "tests/test_b.py": TEST_B + "\n\ndef test_more():\n    assert True\n",
        "calc/__init__.py": CALC.replace("return a + b", "raise ValueError(a)")}
    return gate_report(tmp_path_factory.mktemp("other"), wheelhouse, base, head)


def test_a_test_failing_at_base_another_way_is_still_said(another_way: dict[str, Any]) -> None:
    checked = check(another_way, "base-tests")
    assert checked["status"] == "failed"
    assert [(f["path"], f["rule"]) for f in checked["findings"]] == [
        ("tests/test_b.py", "base-test-failed"), ("tests/test_calc.py", "base-test-failed")]
    assert "ValueError" in checked["findings"][0]["message"]


def test_what_a_failure_is_without_its_particulars() -> None:
    from gate.checks import base_tests
    assert base_tests.failure_kind("OSError: [Errno 18] Invalid cross-device link: '/a'\n"
                                   "more") == "OSError"
    assert base_tests.failure_kind("assert 1 == 2") == "assert 1 == 2"
    assert base_tests.failure_kind("") == ""


# A base test file that cannot be collected on the base either (pytest of the day rejects it,
# as pytest 9 did hynek/stamina's duplicate ids); the change fixes it. Put back, it stopped
# the whole session before the other base files ran.
UNCOLLECTED = "import no_such_module_anywhere\n\n\ndef test_never():\n    assert True\n"
FIXED = "def test_now():\n    assert True\n"


@pytest.fixture(scope="module")
def uncollected(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    base = project(**{"tests/test_old.py": UNCOLLECTED})
    return gate_report(tmp_path_factory.mktemp("uncollected"), wheelhouse, base,
                       {"tests/test_old.py": FIXED})


def test_a_base_file_uncollected_at_base_too_does_not_stop_the_others(
        uncollected: dict[str, Any]) -> None:
    """...and the change's edit of that file is judged by nothing of the base's: a finding
    (issue 48; before, the edit went through as a pass)."""
    checked = check(uncollected, "base-tests")
    assert checked["status"] == "failed"
    assert [(f["path"], f["line"], f["rule"]) for f in checked["findings"]] == [
        ("tests/test_old.py", 1, "base-cannot-judge")]
    assert checked["summary"] == (
        "2 base test file(s) (tests/test_calc.py, tests/test_old.py) pass on the head code, "
        "but for tests/test_old.py, which cannot be collected in the base's own run either, "
        "and which the change edits: nothing judges that edit")
    assert uncollected["verdict"] == "needs-review"


@pytest.fixture(scope="module")
def uncollected_and_broken(tmp_path_factory: pytest.TempPathFactory,
                           wheelhouse: Path) -> dict[str, Any]:
    """The twin: the same fix, and `sub` broken with its test edited to match: the base's
    test_calc.py, run after the file left out, says so."""
    base = project(**{"tests/test_old.py": UNCOLLECTED})
    head: dict[str, str | None] = {
        "tests/test_old.py": FIXED,
        "calc/__init__.py": CALC.replace("return a - b", "return a + b"),
        "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                              "    assert add(2, 3) == 5\n"}
    return gate_report(tmp_path_factory.mktemp("broken"), wheelhouse, base, head)


def test_the_other_base_files_still_judge_the_change(
        uncollected_and_broken: dict[str, Any]) -> None:
    checked = check(uncollected_and_broken, "base-tests")
    assert checked["status"] == "failed"
    assert [(f["path"], f["rule"]) for f in checked["findings"]] == [
        ("tests/test_calc.py", "base-test-failed"), ("tests/test_old.py", "base-cannot-judge")]
