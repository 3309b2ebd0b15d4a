"""A check's detail: at most 1,500 characters, the failing tests first."""
from __future__ import annotations

from gate.outcomes import detail
from gate.outcomes.record import CaseResult

OUTPUT = "".join(f"log line {i:05d}\n" for i in range(20000)) + "1 failed, 40 passed\n"


def test_the_failing_test_leads_and_the_output_tail_fills_the_rest() -> None:
    case = CaseResult("tests/test_x.py::test_total", "tests/test_x.py", 12, "failed",
                      "assert 41 == 42\n +  where 41 = total()")
    text = detail.excerpt([case], OUTPUT)
    assert len(text) <= 1500
    assert text.startswith(
        "FAILED tests/test_x.py::test_total (tests/test_x.py:12)\n"
        "  assert 41 == 42\n   +  where 41 = total()\n--- output ---\n[...]\nlog line ")
    assert text.endswith("log line 19999\n1 failed, 40 passed")


def test_many_failures_take_at_most_half_and_say_how_many_more() -> None:
    cases = [CaseResult(f"test_{i:03d}", None, None, "failed", "x" * 40) for i in range(100)]
    text = detail.excerpt(cases, OUTPUT)
    assert len(text) <= 1500
    shown = text.count("FAILED ")
    assert 0 < shown < 100
    assert f"... and {100 - shown} more failing test(s)\n--- output ---\n" in text


def test_without_failing_tests_it_is_the_bounded_tail() -> None:
    assert detail.excerpt([], "short\n") == "short"
    text = detail.excerpt([], OUTPUT)
    assert len(text) <= 1500
    assert text.startswith("[...]\nlog line ")
    assert text.endswith("1 failed, 40 passed")
