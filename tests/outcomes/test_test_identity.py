"""A test keeps its identity from the base's run to the head's across moves and
parametrisation (gate/outcomes/identity.py); what an honest change keeps never hides what a
cheat removes: a base test is continued only by a test that is new at head, one to one."""
from __future__ import annotations

from gate.outcomes import identity
from gate.outcomes.record import CaseResult, Outcome


def py(name: str, outcome: Outcome = "passed") -> CaseResult:
    file = name.split("::", 1)[0]
    return CaseResult(name, file, None, outcome)


def names(cases: list[CaseResult]) -> list[str]:
    return [c.name for c in cases]


def test_a_module_moved_within_discovery_is_the_same_tests() -> None:
    gone = [py("tests/test_a.py::TestA::test_x"), py("tests/test_a.py::test_y")]
    new = [py("tests/unit/test_a.py::TestA::test_x"), py("tests/unit/test_a.py::test_y")]
    left, matched = identity.still_running("pytest", gone, new)
    assert left == []
    assert names(matched[(None, "tests/test_a.py::test_y")]) == ["tests/unit/test_a.py::test_y"]


def test_a_deleted_test_is_not_continued_by_a_same_named_test_that_ran_at_base_too() -> None:
    """The cheat: delete test_a.py::test_zero and point at test_b.py::test_zero, which was
    there all along. Only tests new at head continue one; the caller passes only those."""
    left, _ = identity.still_running("pytest", [py("tests/test_a.py::test_zero")], [])
    assert names(left) == ["tests/test_a.py::test_zero"]


def test_two_deleted_tests_are_not_both_continued_by_one_new_test() -> None:
    gone = [py("tests/test_a.py::test_zero"), py("tests/test_b.py::test_zero")]
    left, _ = identity.still_running("pytest", gone, [py("tests/test_c.py::test_zero")])
    assert names(left) == ["tests/test_b.py::test_zero"]


def test_a_parametrised_test_is_that_test_still_running() -> None:
    gone = [py("tests/test_a.py::test_add")]
    new = [py("tests/test_a.py::test_add[2-3-5]"), py("tests/test_a.py::test_add[0-0-0]")]
    left, matched = identity.still_running("pytest", gone, new)
    assert left == []
    assert len(matched[(None, "tests/test_a.py::test_add")]) == 2


def test_a_case_removed_from_a_parametrised_test_is_not_continued_by_its_siblings() -> None:
    """test_add[0-0-0] removed, the other cases still there (they ran at base too)."""
    left, _ = identity.still_running("pytest", [py("tests/test_a.py::test_add[0-0-0]")], [])
    assert names(left) == ["tests/test_a.py::test_add[0-0-0]"]


def test_a_changed_case_is_not_continued_by_another_explicit_id() -> None:
    left, _ = identity.still_running("pytest", [py("t.py::test_add[zero-zero]")],
                                     [py("t.py::test_add[one-two]")])
    assert names(left) == ["t.py::test_add[zero-zero]"]
    left, _ = identity.still_running("pytest", [py("t.py::test_add[0-0-0]")],
                                     [py("t.py::test_add[1-1]")])
    assert names(left) == ["t.py::test_add[0-0-0]"]


NOW = "t.py::TestF::test_invalid[{}]"  # marshmallow's ids: datetime.now().strftime(...)


def test_ids_made_from_the_time_of_the_run_are_the_same_cases() -> None:
    gone = [py(NOW.format("08:30:22 2026-12-03")), py(NOW.format("12-03-2026 08:30:22"))]
    new = [py(NOW.format("08:31:05 2026-12-03")), py(NOW.format("12-03-2026 08:31:05"))]
    left, matched = identity.still_running("pytest", gone, new)
    assert left == []
    assert names(matched[(None, gone[1].name)]) == [new[1].name]


def test_time_valued_ids_are_paired_beside_cases_added_to_the_same_function() -> None:
    """marshmallow 6e72beb7 adds `True`, `False` to the same parametrize list."""
    gone = [py(NOW.format("08:30:22 2026-12-03"))]
    new = [py(NOW.format("True")), py(NOW.format("False")), py(NOW.format("08:31:05 2026-12-03"))]
    left, matched = identity.still_running("pytest", gone, new)
    assert left == []
    assert names(matched[(None, gone[0].name)]) == [new[2].name]


def test_ids_alike_but_digits_stay_apart_where_a_case_is_gone() -> None:
    """Two cases of that shape at base, one at head: which one went is not known, and one
    did: both are reported."""
    gone = [py(NOW.format("08:30:22 2026-12-03")), py(NOW.format("09:00:00 2026-12-03"))]
    left, _ = identity.still_running("pytest", gone, [py(NOW.format("08:31:05 2026-12-03"))])
    assert names(left) == names(gone)


def test_ids_alike_but_digits_pair_only_within_their_file_and_function() -> None:
    gone = [py(NOW.format("08:30:22 2026-12-03"))]
    for other in ("u.py::TestF::test_invalid[08:31:05 2026-12-03]",
                  "t.py::TestF::test_valid[08:31:05 2026-12-03]",
                  "t.py::TestF::test_invalid[08:31:05 2026-12-03 x]"):
        assert names(identity.still_running("pytest", gone, [py(other)])[0]) == names(gone)


def test_positional_ids_renumbered_by_an_inserted_case_are_matched_by_their_shape() -> None:
    """`styles0-dark` at base is `styles1-dark` at head once a case is put before it."""
    gone = [py(f"t.py::test_render[styles{i}-dark]") for i in range(3)]
    new = [py(f"t.py::test_render[styles{i}-dark]") for i in range(3, 4)]
    left, _ = identity.still_running("pytest", gone, new)
    assert names(left) == ["t.py::test_render[styles1-dark]", "t.py::test_render[styles2-dark]"]
    more = [py(f"t.py::test_render[styles{i}-dark]") for i in range(3, 7)]
    left, _ = identity.still_running("pytest", gone, more)
    assert left == []


def test_positional_ids_of_another_shape_are_not_matched() -> None:
    left, _ = identity.still_running("pytest", [py("t.py::test_render[styles0-dark]")],
                                     [py("t.py::test_render[styles1-light]")])
    assert len(left) == 1


def test_a_js_test_moved_to_another_file_is_the_same_title() -> None:
    gone = [CaseResult("math > adds", "test/a.test.js", None, "passed")]
    new = [CaseResult("math > adds", "test/math/a.test.js", None, "passed")]
    assert identity.still_running("jest", gone, new)[0] == []
    other = [CaseResult("math > subtracts", "test/math/a.test.js", None, "passed")]
    assert len(identity.still_running("jest", gone, other)[0]) == 1


def test_a_rust_unit_test_moved_to_an_integration_test_is_the_same_function() -> None:
    gone = [CaseResult("tests::adds", "src/lib.rs", None, "passed")]
    new = [CaseResult("adds", "tests/add.rs", None, "passed")]
    assert identity.still_running("cargo test", gone, new)[0] == []
    # only for Rust: a Python test is not known by its bare function
    assert len(identity.still_running("pytest", [py("t.py::TestA::test_x")],
                                      [py("u.py::TestB::test_x")])[0]) == 1


def test_a_unittest_module_moved_is_the_same_class_and_method() -> None:
    gone = [CaseResult("tests.test_a.TestA.test_x", "tests/test_a.py", 5, "passed")]
    new = [CaseResult("tests.unit.test_a.TestA.test_x", "tests/unit/test_a.py", 5, "passed")]
    assert identity.still_running("unittest", gone, new)[0] == []
    other = [CaseResult("tests.unit.test_a.TestB.test_x", "tests/unit/test_a.py", 5, "passed")]
    assert len(identity.still_running("unittest", gone, other)[0]) == 1


def test_a_js_test_under_a_renamed_describe_is_the_same_test() -> None:
    """Seen on jshttp/cookie 6fea506: `cookie.parse(str)` became `cookie.parseCookie`, its
    spec file renamed with it; every `it` kept its title."""
    gone = [CaseResult("cookie.parse(str) > should ignore OWS", "src/parse.spec.ts", None,
                       "passed")]
    new = [CaseResult("cookie.parseCookie > should ignore OWS", "src/parse-cookie.spec.ts",
                      None, "passed")]
    assert identity.still_running("vitest", gone, new)[0] == []
    other = [CaseResult("cookie.parseCookie > should parse OWS", "src/parse-cookie.spec.ts",
                        None, "passed")]
    assert len(identity.still_running("vitest", gone, other)[0]) == 1
