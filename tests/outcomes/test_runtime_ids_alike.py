"""Parametrize ids made from the time of the run (marshmallow's
`test_invalid_datetime_deserialization[08:30:22 2026-12-03]`) differ between the base's run and
the head's: the same cases, not removals. What that pairing could hide is still caught: a case
swapped for one of other digits is judged by its outcome at head, and a case removed from a
group of ids alike but for their digits is still reported. One gate run per repository."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import project

pytestmark = pytest.mark.slow

TEST_NOW = """\
import datetime as dt

import pytest

from calc import add


@pytest.mark.parametrize("when", [
    "not-a-time",
    dt.datetime.now().strftime("%H:%M:%S.%f %Y-%m-%d"),
    dt.datetime.now().strftime("%m-%d-%Y %H:%M:%S.%f"),
])
def test_not_a_number(when):
    with pytest.raises(TypeError):
        add(when, 1)
"""
TEST_DOUBLE = """\
import pytest

from calc import add


@pytest.mark.parametrize("n", [1, {second}])
def test_double(n):
{body}    assert add(n, n) == 2 * n
"""
TEST_TRIPLE = """\
import pytest

from calc import add


@pytest.mark.parametrize("n", {cases})
def test_triple(n):
    assert add(add(n, n), n) == 3 * n
"""
CALC_HEAD = ('"""Adding."""\n\n\ndef add(a, b):\n    return a + b\n\n\n'
             'def sub(a, b):\n    return a - b\n')


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """The head changes the code only; the ids of two cases hold the time of each run."""
    base = project(**{"tests/test_now.py": TEST_NOW})
    return gate_report(tmp_path_factory.mktemp("now"), wheelhouse, base,
                       {"calc/__init__.py": CALC_HEAD})


def test_time_valued_ids_are_the_same_cases_at_head(honest: dict[str, Any]) -> None:
    removed = check(honest, "tests-removed")
    assert [f for f in removed["findings"] if f["rule"] == "not-run-at-head"] == []
    assert check(honest, "suite")["summary"] == "1 of 1 runs passed, 5/5 tests"
    assert honest["verdict"] == "pass", [
        (c["id"], c["summary"], c["findings"]) for c in honest["checks"] if c["findings"]]


@pytest.fixture(scope="module")
def swapped(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """`test_double[2]` swapped for `[3]`, which skips at run time; `test_triple[5]` dropped
    while `[7]` became `[8]` (two cases alike but for their digits at base, one at head)."""
    base = project(**{"tests/test_double.py": TEST_DOUBLE.format(second=2, body=""),
                      "tests/test_triple.py": TEST_TRIPLE.format(cases="[5, 7]")})
    skip = "    if n == 3:\n        pytest.skip('later')\n"
    head: dict[str, str | None] = {
        "tests/test_double.py": TEST_DOUBLE.format(second=3, body=skip),
        "tests/test_triple.py": TEST_TRIPLE.format(cases="[8]")}
    return gate_report(tmp_path_factory.mktemp("swapped"), wheelhouse, base, head)


def test_a_case_swapped_for_one_that_skips_at_head_is_still_a_finding(
        swapped: dict[str, Any]) -> None:
    at_run_time = [f["message"] for f in check(swapped, "skip-markers")["findings"]
                   if f["rule"] == "skipped-at-head"]
    assert at_run_time == ["`tests/test_double.py::test_double[3]` passed at base and is "
                           "skipped or xfailed at head, at run time (later)"]


def test_a_case_removed_among_ids_alike_but_digits_is_still_reported(
        swapped: dict[str, Any]) -> None:
    not_run = sorted(f["message"].split("`")[1] for f in check(swapped, "tests-removed")[
        "findings"] if f["rule"] == "not-run-at-head")
    assert not_run == ["tests/test_triple.py::test_triple[5]",
                       "tests/test_triple.py::test_triple[7]"]
    assert swapped["verdict"] == "needs-review"
