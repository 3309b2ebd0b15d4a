"""The baseline's label for each failing test, from the base's outcomes (the end-to-end runs
are in test_baseline.py and test_runtime_identity.py)."""
from __future__ import annotations

from gate.models import CheckResult, Finding
from gate.outcomes import baseline
from gate.outcomes.record import CaseResult, Counts

BASE = Counts("pytest", 2, 0, 0, (CaseResult("t.py::test_a", "t.py", 4, "passed"),
                                  CaseResult("t.py::test_b", "t.py", 8, "passed")))


def suite(*messages: str) -> CheckResult:
    return CheckResult("suite", "The whole suite passes every run", "failed", True,
                       "2 of 3 runs passed", findings=tuple(
                           Finding("t.py", 4, "test-failed", m, severity="error")
                           for m in messages))


def test_a_test_that_failed_in_one_of_three_runs_is_flaky_not_a_regression() -> None:
    """Seen: one base run passed it, one head run of three failed it: "regression: passed at
    base" was wrong; one passing base run cannot tell a new flake from an old one."""
    done = baseline.classify_suite(suite(
        "flaky: t.py::test_a failed in 1 of 3 runs (passed 2 of 3): boom"), BASE, True)
    [finding] = done.findings
    assert finding.message.endswith("[flaky: passed at base and in some runs at head]")
    assert done.summary == "2 of 3 runs passed; baseline: 1 flaky, passing in some runs"


def test_a_test_that_failed_in_every_run_is_still_a_regression() -> None:
    done = baseline.classify_suite(suite("t.py::test_b failed in 3 of 3 runs: boom",
                                         "flaky: t.py::test_new failed in 1 of 3 runs"),
                                   BASE, True)
    assert [f.message.rsplit("[", 1)[1] for f in done.findings] == [
        "regression: passed at base]", "flaky: passed in some runs at head]"]
    assert done.summary.endswith("baseline: 1 regression(s), 1 flaky, passing in some runs")


def test_a_module_missing_at_base_and_head_alike_is_the_installs_doing() -> None:
    at_base = Counts("pytest", 0, 1, 0, (CaseResult(
        "tests/test_a.py", "tests/test_a.py", None, "failed",
        "not collected: ModuleNotFoundError: No module named 'dateutil'"),))
    done = baseline.classify_suite(suite(
        "tests/test_a.py failed in 3 of 3 runs: not collected: ModuleNotFoundError: No "
        "module named 'dateutil'"), at_base, False)
    assert done.findings[0].message.endswith(
        "[pre-existing: fails at base too: the install lacks dateutil: set `install` in "
        "[tool.gate] on the base branch]")


def test_a_failure_of_its_own_at_base_is_not_blamed_on_the_install() -> None:
    """The honest twin: fails at base too, but not for want of the same module."""
    at_base = Counts("pytest", 0, 1, 0, (CaseResult("t.py::test_a", "t.py", 4, "failed",
                                                    "assert 1 == 2"),))
    done = baseline.classify_suite(suite(
        "t.py::test_a failed in 3 of 3 runs: ModuleNotFoundError: No module named 'yaml'"),
        at_base, False)
    assert done.findings[0].message.endswith("[pre-existing: fails at base too]")


def test_what_a_failure_says_is_missing() -> None:
    assert baseline.lacks("E   ModuleNotFoundError: No module named 'dateutil'") == "dateutil"
    assert baseline.lacks("/bin/sh: 1: ruff: not found") == "ruff"
    assert baseline.lacks("bash: line 1: mypy: command not found") == "mypy"
    assert baseline.lacks("AssertionError: found 3 items") is None


def test_an_order_dependent_test_that_passed_at_base_is_not_called_new_at_head() -> None:
    """Seen on sloria/environs 1a47a36: three tests that fail after `test_read_env` (which
    loads a .env into os.environ) failed in reversed order at head, and at its parent too.
    Their finding's message starts "order-dependent: NAME fails in ...", and the name was read
    up to " failed in ", so no base test had it: "[regression: new at head]"."""
    done = baseline.classify_suite(suite(
        "order-dependent: t.py::test_a fails in reversed order and passes in the project's "
        "order, also when both are repeated in fresh checkouts (failed in 1 of 3 runs): boom",
        "order-dependent: t.py::test_new fails in reversed order and passes in the project's "
        "order, also when both are repeated in fresh checkouts (failed in 1 of 3 runs)"),
        BASE, True)
    assert [f.message.rsplit("[", 1)[1] for f in done.findings] == [
        "order-dependent: passed at base, in the project's order, the only one run there]",
        "regression: new at head]"]
    assert done.summary.endswith("baseline: 1 regression(s), 1 order-dependent, passing at "
                                 "base in the project's order")


def test_the_test_is_named_as_the_suite_said_it() -> None:
    assert baseline.failed_test("t.py::test_a failed in 3 of 3 runs: x") == ("", "t.py::test_a")
    assert baseline.failed_test("flaky: t.py::a[1-2] failed in 1 of 3 runs (passed 2)") == (
        "flaky:", "t.py::a[1-2]")
    assert baseline.failed_test("order-dependent: t.py::a fails in reversed order") == (
        "order-dependent:", "t.py::a")
