"""A test keeps its identity from the base's run to the head's, end to end: moved to another
file, parametrised, its positional ids renumbered, a Rust unit test moved to tests/; a module
that does not import is the suite's failure, not removals. Each honest change ends in pass
(or in fail from the suite alone) with no tests-removed finding; one gate run per change,
asserted by several tests."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.gaterun import check, gate_report
from helpers.pyproject_fixture import project

pytestmark = pytest.mark.slow

TEST_A = """\
from calc import add


class TestA:
    def test_x(self):
        assert add(1, 1) == 2

    def test_y(self):
        assert add(2, 2) == 4


def test_z():
    assert add(0, 0) == 0
"""
TEST_B = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
TEST_B_PARAMETRISED = """\
import pytest

from calc import add


@pytest.mark.parametrize("a,b,total", [(2, 3, 5), (0, 0, 0)])
def test_add(a, b, total):
    assert add(a, b) == total
"""
TEST_C = """\
import pytest

from calc import add

CASES = [
{cases}
]


@pytest.mark.parametrize("styles,name", CASES)
def test_render(styles, name):
    assert add(styles["n"], 0) == styles["n"] and name
"""
CASES = '    ({"n": 1}, "foo"),\n    ({"n": 2}, "bar"),'
CASES_INSERTED = '    ({"n": 0}, "baz"),\n' + CASES
TEST_D = """\
from calc import add


def test_one():
    assert add(1, 0) == 1


def test_two():
    assert add(2, 0) == 2
"""
TEST_E = "from calc import add\n\n\ndef test_three():\n    assert add(3, 0) == 3\n"


@pytest.fixture(scope="module")
def moved(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    base = project(**{"tests/test_a.py": TEST_A, "tests/test_b.py": TEST_B,
                      "tests/test_c.py": TEST_C.format(cases=CASES),
                      "tests/test_d.py": TEST_D, "tests/test_e.py": TEST_E})
    head: dict[str, str | None] = {
        "tests/test_a.py": None, "tests/unit/test_a.py": TEST_A,  # a module moved
        "tests/test_b.py": TEST_B_PARAMETRISED,  # test_add -> test_add[2-3-5], [0-0-0]
        "tests/test_c.py": TEST_C.format(cases=CASES_INSERTED),  # styles0-foo -> styles1-foo
        "tests/test_d.py": None,  # both tests moved into test_e.py
        "tests/test_e.py": TEST_E + "\n\n" + TEST_D.split("\n\n\n", 1)[1]}
    return gate_report(tmp_path_factory.mktemp("moved"), wheelhouse, base, head)


def test_moved_parametrised_and_renumbered_tests_are_the_same_tests(
        moved: dict[str, Any]) -> None:
    removed = check(moved, "tests-removed")
    assert [f for f in removed["findings"] if f["rule"] == "not-run-at-head"] == []
    assert check(moved, "suite")["summary"] == "1 of 1 runs passed, 13/13 tests"


def test_moved_parametrised_and_renumbered_tests_pass(moved: dict[str, Any]) -> None:
    assert moved["verdict"] == "pass", [
        (c["id"], c["summary"], c["findings"]) for c in moved["checks"] if c["findings"]]


@pytest.fixture(scope="module")
def uncollected(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """The head's test module imports what the install does not bring."""
    base = project(**{"tests/test_a.py": TEST_A})
    head: dict[str, str | None] = {"tests/test_a.py": "import dateutil\n" + TEST_A}
    return gate_report(tmp_path_factory.mktemp("uncollected"), wheelhouse, base, head)


def test_a_module_that_does_not_import_is_the_suites_failure_not_removals(
        uncollected: dict[str, Any]) -> None:
    removed = check(uncollected, "tests-removed")
    assert [f for f in removed["findings"] if f["rule"] == "not-run-at-head"] == []
    assert removed["status"] == "passed"
    suite = check(uncollected, "suite")
    [finding] = suite["findings"]
    assert (finding["path"], finding["rule"]) == ("tests/test_a.py", "test-failed")
    assert finding["message"].startswith(
        "tests/test_a.py failed in 1 of 1 runs: not collected: ModuleNotFoundError: "
        "No module named 'dateutil'")


def test_the_uncollected_tests_are_counted_under_the_suite_and_it_fails(
        uncollected: dict[str, Any]) -> None:
    """pytest stops at a collection error: every test of the base is not collected."""
    suite = check(uncollected, "suite")
    assert "(base 5: 5 not collected: ModuleNotFoundError: No module named 'dateutil')" in (
        suite["summary"])
    assert uncollected["verdict"] == "fail"


RUST_LIB = """\
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests;
"""
RUST_UNIT = """\
use super::*;

#[test]
fn adds() {
    assert_eq!(add(2, 3), 5);
}

#[test]
fn adds_zero() {
    assert_eq!(add(0, 0), 0);
}

#[test]
fn adds_negatives() {
    assert_eq!(add(-1, -1), -2);
}
"""
RUST_INTEGRATION = """\
use tiny::add;

#[test]
fn adds() {
    assert_eq!(add(2, 3), 5);
}

#[test]
fn adds_zero() {
    assert_eq!(add(0, 0), 0);
}
"""


@pytest.fixture(scope="module")
def rust_moved(tmp_path_factory: pytest.TempPathFactory,
               wheelhouse: Path) -> Iterator[dict[str, Any]]:
    """Unit tests in src/tests.rs moved to tests/add.rs, but for one, deleted."""
    import os
    import shutil
    cargo = shutil.which("cargo")
    if cargo is None:
        # gate: allow skip-markers -- only where cargo is missing, and says so; .ci/run has it
        pytest.skip("cargo is not installed: the Rust tests need it")
    root = tmp_path_factory.mktemp("rust")
    with pytest.MonkeyPatch.context() as mp:
        rustup_home = Path(cargo).resolve().parents[2] / ".rustup"
        if "RUSTUP_HOME" not in os.environ and rustup_home.is_dir():
            mp.setenv("RUSTUP_HOME", str(rustup_home))
        mp.setenv("CARGO_HOME", str(root / "cargo-home"))
        mp.setenv("CARGO_NET_OFFLINE", "true")
        yield gate_report(root, wheelhouse, {
            "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/lib.rs": RUST_LIB, "src/tests.rs": RUST_UNIT, ".gitignore": "target/\n"}, {
            "src/lib.rs": RUST_LIB.split("\n#[cfg(test)]")[0] + "\n",
            "src/tests.rs": None, "tests/add.rs": RUST_INTEGRATION}, "--test", "cargo test")


def test_rust_unit_tests_moved_to_tests_are_the_same_tests(
        rust_moved: dict[str, Any]) -> None:
    """`tests::adds` at base is `adds` at head; the one deleted is named once, at its
    definition in the deleted file (the static finding there wins over the run's), never
    with "its file is still there"."""
    removed = check(rust_moved, "tests-removed")
    assert [(f["path"], f["line"]) for f in removed["findings"]] == [("src/tests.rs", 14)]
    assert not any("still there" in f["message"] for f in removed["findings"])
    assert "(base 3: 1 no longer run)" in check(rust_moved, "suite")["summary"]


FLAKY = """\
import pathlib


def test_second_run_fails():
    count = pathlib.Path(__file__).with_name(".count")
    n = int(count.read_text()) + 1 if count.exists() else 1
    count.write_text(str(n))
    assert n != 2, "fails in the second run only"
"""


@pytest.fixture(scope="module")
def flaky(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> dict[str, Any]:
    """A test that passed in the base's one run and fails in the second of three head runs."""
    return gate_report(tmp_path_factory.mktemp("flaky"), wheelhouse,
                 project(**{"tests/checks/test_flaky.py": FLAKY}), {"README": "honest\n"},
                 # its state crosses runs in one checkout: one after another, no boundary
                 # (inside one, and side by side, each run starts clean)
                 "--runs", "3", "--no-parallel", "--isolation", "off")


def test_a_test_failing_in_one_of_three_head_runs_is_flaky_not_a_regression(
        flaky: dict[str, Any]) -> None:
    suite = check(flaky, "suite")
    [finding] = suite["findings"]
    assert finding["message"] == (
        "flaky: tests/checks/test_flaky.py::test_second_run_fails failed in 1 of 3 runs (passed 2 "
        "of 3): AssertionError: fails in the second run only [flaky: passed at base and in "
        "some runs at head]")
    assert suite["summary"].endswith("; baseline: 1 flaky, passing in some runs")
    assert flaky["verdict"] == "fail"  # flaky still fails the suite
