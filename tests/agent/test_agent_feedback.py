"""The answer a model reads (gate/agent/feedback.py): bounded, the deciding checks first."""
from __future__ import annotations

from gate.agent import feedback
from gate.checks import allow, registry
from gate.models import CheckResult, Finding, Report


def finding(n: int) -> Finding:
    return Finding(f"tests/test_{n}.py", n, "pytest.mark.skip", "new skip marker " + "x" * 80)


def report(*checks: CheckResult) -> Report:
    return Report("fail", "b" * 40, "h" * 40, 1.0, checks)


SKIPS = CheckResult("skip-markers", "t", "failed", False, "40 new markers",
                    findings=tuple(finding(n) for n in range(1, 41)))
SUITE = CheckResult("suite", "t", "failed", True, "0 of 3 runs passed",
                    detail="FAILED tests/test_x.py::test_y (tests/test_x.py:3)\n"
                           "  assert 1 == 2\n" + "log line\n" * 400)


def test_the_check_that_decided_the_fail_comes_first() -> None:
    text = feedback.for_report(report(SKIPS, SUITE), "header")
    lines = text.splitlines()
    assert lines[0] == "header"
    assert lines[2] == "1. suite (failed, required): 0 of 3 runs passed"
    assert lines[3:5] == ["   FAILED tests/test_x.py::test_y (tests/test_x.py:3)",
                          "     assert 1 == 2"]
    assert "2. skip-markers (failed): 40 new markers" in lines


def test_the_answer_is_at_most_a_few_kilobytes_and_says_it_was_cut() -> None:
    many = tuple(CheckResult(f"user-{n}", "t", "failed", False, "failed " + "y" * 200,
                             detail="z" * 2000, findings=SKIPS.findings) for n in range(30))
    text = feedback.for_report(report(SUITE, SKIPS, *many), "header")
    assert len(text.encode()) <= feedback.LIMIT == 4096
    assert text.endswith("[... cut to stay short: `gate run --format json` prints the whole "
                         "report]")
    assert text.splitlines()[1].startswith("What would make it pass:")  # never cut away
    assert "   ... and 32 more finding(s) of skip-markers" in text


def test_a_short_answer_is_not_cut() -> None:
    text = feedback.for_report(report(SUITE), "header")
    assert "[... cut" not in text
    assert text.splitlines()[-1].startswith("   Resolve: fix the failing test")


def test_notices_are_not_something_to_act_on() -> None:
    notice = CheckResult("lockfiles", "t", "passed", False, "ok", findings=(
        Finding("uv.lock", 1, "lockfile", "changed", severity="notice"),))
    assert feedback.to_act_on(report(notice, SUITE)) == [SUITE]


def test_every_built_in_check_gives_its_advice() -> None:
    """Each check's EXPLANATION says how to resolve it (`Resolve` or `To resolve`)."""
    for check_id in registry.ORDER:
        text = feedback.for_report(report(CheckResult(check_id, "t", "failed", True, "x")), "h")
        assert "\n   Resolve" in text, check_id


def test_what_the_agent_reads_never_suggests_a_waiver() -> None:
    """Issue 48: the agent was told how to allow a finding itself. Every allowable check's
    advice says what to fix and that a person approves the rest; none spells an allow comment."""
    checks = tuple(CheckResult(c, "t", "failed", False, "found", findings=(finding(1),))
                   for c in (*allow.ALLOWABLE, "pinned"))
    text = feedback.for_report(Report("needs-review", "b" * 40, "h" * 40, 1.0, checks), "h")
    assert "gate: allow" not in text
    assert "A person must approve the rest" in text.splitlines()[1]
