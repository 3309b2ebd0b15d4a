from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from helpers.diffcheck import found, run_check
from helpers.gitrepo import make_change

from gate.checks import tests_removed
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff

Files = Mapping[str, str | None]

PY_TWO = (
    "def test_one():\n"      # 1
    "    assert 1\n"         # 2
    "\n"                     # 3
    "def test_two():\n"      # 4
    "    assert 2\n"         # 5
)


def check(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(tests_removed.run, tmp_path, base, head)


def test_deleted_test_function(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO},
                   {"tests/test_a.py": "def test_one():\n    assert 1\n"})
    assert found(result) == [("tests/test_a.py", 4, "test-removed")]
    finding = result.findings[0]
    assert finding.severity == "error"
    assert finding.message == "test `test_two` was removed (present at base, absent at head)"
    assert result.status == "failed"
    assert result.summary == "1 test definition(s) removed"


def test_deleted_test_file(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO, "src/a.py": "x = 1\n"},
                   {"tests/test_a.py": None})
    assert found(result) == [("tests/test_a.py", 1, "test-removed"),
                             ("tests/test_a.py", 4, "test-removed")]
    assert result.findings[0].message == (
        "test `test_one` was removed (present at base, absent at head); "
        "tests/test_a.py was deleted"
    )


def test_test_file_renamed_out_of_discovery(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_x.py": PY_TWO},
                   {"tests/test_x.py": None, "tests/x_checks.py": PY_TWO})
    assert found(result) == [("tests/test_x.py", 1, "test-removed"),
                             ("tests/test_x.py", 4, "test-removed")]
    assert result.findings[1].message == (
        "test `test_two` is no longer collected: tests/x_checks.py is not a test file "
        "by the discovery rules"
    )


def test_test_moved_to_another_file_is_not_removed(tmp_path: Path) -> None:
    result = check(
        tmp_path, {"tests/test_a.py": PY_TWO},
        {"tests/test_a.py": "def test_one():\n    assert 1\n",
         "tests/test_b.py": "def test_two():\n    assert 2\n"},
    )
    assert found(result) == []
    assert result.status == "passed"
    assert result.summary == "no test definitions removed"


def test_test_file_renamed_within_discovery_is_not_removed(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO},
                   {"tests/test_a.py": None, "tests/test_renamed.py": PY_TWO})
    assert found(result) == []


def test_renamed_test_is_removed_and_names_the_likely_rename(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO},
                   {"tests/test_a.py": PY_TWO.replace("test_two", "test_two_renamed")})
    assert found(result) == [("tests/test_a.py", 4, "test-removed")]
    assert result.findings[0].message == (
        "test `test_two` was removed (present at base, absent at head); "
        "new in the same file: `test_two_renamed` (a likely rename)"
    )


def test_rename_hint_is_the_closest_new_name_not_the_first_three(tmp_path: Path) -> None:
    # issue 23: the hint listed the first three new names of the file, whatever they were
    base = "def test_parse_date():\n    pass\n"
    head = ("def test_format_number():\n    pass\n\n\ndef test_render_html():\n    pass\n\n\n"
            "def test_strip_space():\n    pass\n\n\ndef test_parse_dates():\n    pass\n")
    result = check(tmp_path, {"tests/test_a.py": base}, {"tests/test_a.py": head})
    assert [f.message for f in result.findings] == [
        "test `test_parse_date` was removed (present at base, absent at head); "
        "new in the same file: `test_parse_dates` (a likely rename)"]


def test_no_rename_hint_when_no_new_name_is_close(tmp_path: Path) -> None:
    base = "def test_parse_date():\n    pass\n"
    head = "def test_render_html_table():\n    pass\n"
    result = check(tmp_path, {"tests/test_a.py": base}, {"tests/test_a.py": head})
    assert [f.message for f in result.findings] == [
        "test `test_parse_date` was removed (present at base, absent at head)"]


def test_unittest_method_removed(tmp_path: Path) -> None:
    base = (
        "import unittest\n"                      # 1
        "\n"                                     # 2
        "class ParserChecks(unittest.TestCase):\n"  # 3
        "    def test_parses(self):\n"           # 4
        "        self.assertTrue(True)\n"        # 5
        "\n"                                     # 6
        "    def test_rejects(self):\n"          # 7
        "        self.assertTrue(True)\n"        # 8
    )
    head = base.split("\n    def test_rejects")[0] + "\n"
    result = check(tmp_path, {"tests/test_parser.py": base}, {"tests/test_parser.py": head})
    assert found(result) == [("tests/test_parser.py", 7, "test-removed")]
    assert "`ParserChecks.test_rejects`" in result.findings[0].message


def test_method_moved_to_another_class_is_removed(tmp_path: Path) -> None:
    base = "class TestA:\n    def test_x(self):\n        pass\n"
    head = "class TestB:\n    def test_x(self):\n        pass\n"
    result = check(tmp_path, {"tests/test_a.py": base}, {"tests/test_a.py": head})
    assert found(result) == [("tests/test_a.py", 2, "test-removed")]


def test_javascript_it_removed(tmp_path: Path) -> None:
    base = (
        "describe('math', () => {\n"                  # 1
        "  it('adds', () => expect(1 + 1).toBe(2));\n"  # 2
        "  it('subtracts', () => expect(1 - 1).toBe(0));\n"  # 3
        "});\n"
    )
    head = base.replace("  it('subtracts', () => expect(1 - 1).toBe(0));\n", "")
    result = check(tmp_path, {"src/math.test.js": base}, {"src/math.test.js": head})
    assert found(result) == [("src/math.test.js", 3, "test-removed")]
    assert result.findings[0].message.startswith("test `math > subtracts` was removed")


def test_javascript_duplicate_title_one_removed_points_at_the_removed_line(
        tmp_path: Path) -> None:
    base = "it('works', () => {});\nit('other', () => {});\nit('works', () => {});\n"
    head = "it('works', () => {});\nit('other', () => {});\n"
    result = check(tmp_path, {"test/a.js": base}, {"test/a.js": head})
    assert found(result) == [("test/a.js", 3, "test-removed")]


def test_go_test_removed(tmp_path: Path) -> None:
    base = (
        "package calc\n\nimport \"testing\"\n\n"
        "func TestAdd(t *testing.T) {}\n"     # 5
        "\n"
        "func TestSub(t *testing.T) {}\n"     # 7
    )
    head = base.replace("func TestSub(t *testing.T) {}\n", "")
    result = check(tmp_path, {"calc/calc_test.go": base}, {"calc/calc_test.go": head})
    assert found(result) == [("calc/calc_test.go", 7, "test-removed")]
    assert "`TestSub`" in result.findings[0].message


def test_rust_test_removed(tmp_path: Path) -> None:
    base = (
        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n"  # 1
        "#[cfg(test)]\n"                                 # 2
        "mod tests {\n"                                  # 3
        "    #[test]\n"                                  # 4
        "    fn adds() { assert_eq!(super::add(1, 1), 2); }\n"  # 5
        "    #[test]\n"                                  # 6
        "    #[should_panic]\n"                          # 7
        "    fn overflows() { panic!(); }\n"             # 8
        "}\n"
    )
    head = base.replace("    #[test]\n    #[should_panic]\n    fn overflows() { panic!(); }\n", "")
    result = check(tmp_path, {"src/lib.rs": base}, {"src/lib.rs": head})
    assert found(result) == [("src/lib.rs", 8, "test-removed")]


def test_honest_change_adding_tests_raises_nothing(tmp_path: Path) -> None:
    result = check(
        tmp_path, {"tests/test_a.py": PY_TWO, "src/a.py": "x = 1\n"},
        {"tests/test_a.py": PY_TWO + "\ndef test_three():\n    assert 3\n",
         "tests/test_new.py": "def test_four():\n    assert 4\n", "src/a.py": "x = 2\n"},
    )
    assert found(result) == []
    assert result.status == "passed"


def test_python_files_from_base_pytest_ini_is_honoured(tmp_path: Path) -> None:
    ini = "[pytest]\npython_files = check_*.py\n"
    result = check(
        tmp_path,
        {"pytest.ini": ini, "tests/check_a.py": PY_TWO, "tests/test_b.py": PY_TWO},
        # The head also narrows discovery to hide the removal: the base's rules still apply.
        {"pytest.ini": "[pytest]\npython_files = nothing_*.py\n",
         "tests/check_a.py": "def test_one():\n    assert 1\n",
         "tests/test_b.py": "def test_one():\n    assert 1\n"},
    )
    # tests/test_b.py is not a test file under the base's python_files: nothing is lost there.
    assert found(result) == [("tests/check_a.py", 4, "test-removed")]


def test_head_that_does_not_parse_is_named_in_the_message(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO},
                   {"tests/test_a.py": PY_TWO + "def broken(:\n"})
    assert found(result) == [("tests/test_a.py", 1, "test-removed"),
                             ("tests/test_a.py", 4, "test-removed")]
    assert result.findings[0].message == (
        "test `test_one` was removed (present at base, absent at head); tests/test_a.py "
        "does not parse at head (SyntaxError at line 6: invalid syntax), "
        "so its tests could not be read"
    )


def test_same_name_in_two_files_counts_occurrences(tmp_path: Path) -> None:
    same = "def test_same():\n    assert 1\n"
    result = check(tmp_path, {"tests/test_a.py": same, "tests/test_b.py": "\n" + same},
                   {"tests/test_b.py": "\n"})
    assert found(result) == [("tests/test_b.py", 2, "test-removed")]


def test_binary_file_is_ignored(tmp_path: Path) -> None:
    result = check(tmp_path, {"tests/test_a.py": PY_TWO},
                   {"tests/test_a.py": "\x00\x01binary now\n"})
    assert found(result) == []


def test_symlinks_are_not_read_but_a_test_file_turned_symlink_loses_its_tests(
        tmp_path: Path) -> None:
    repo, base_sha, _ = make_change(
        tmp_path / "repo", {"tests/test_a.py": PY_TWO, "tests/test_link.py": "x"}, {})
    (repo.path / "tests/test_link.py").unlink()
    (repo.path / "tests/test_link.py").symlink_to("def test_one(): pass")  # not read as code
    (repo.path / "tests/test_a.py").unlink()
    (repo.path / "tests/test_a.py").symlink_to("../elsewhere.py")
    head_sha = repo.commit({}, "symlinks")
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    result = tests_removed.run(ctx)
    assert found(result) == [("tests/test_a.py", 1, "test-removed"),
                             ("tests/test_a.py", 4, "test-removed")]
    assert result.findings[0].message.endswith("; tests/test_a.py was replaced by a symlink")


def _spec(describe: str, titles: list[str]) -> str:
    body = "".join(f"  it('{t}', () => {{ expect(1).toBe(1) }})\n" for t in titles)
    return f"describe('{describe}', () => {{\n{body}}})\n"


def test_describes_renamed_with_their_spec_files_keep_their_tests(tmp_path: Path) -> None:
    """jshttp/cookie 6fea506: `cookie.parse(str)` became `cookie.parseCookie`, the spec file
    renamed with it, every `it` kept its title: 55 tests read as removed. Each is its own
    title under a renamed describe, as the run-time side keeps it."""
    titles = ["ignores OWS", "parses a quoted value", "ignores OWS"]
    result = check(tmp_path, {"test/parse.js": _spec("cookie.parse(str)", titles)},
                   {"test/parse.js": None,
                    "test/parse-cookie.js": _spec("cookie.parseCookie", titles)})
    assert found(result) == []


def test_a_title_dropped_under_a_renamed_describe_is_still_removed(tmp_path: Path) -> None:
    """One to one, and only against tests new at head: one `ignores OWS` of two gone."""
    result = check(tmp_path,
                   {"test/parse.js": _spec("cookie.parse(str)", ["ignores OWS", "ignores OWS"]),
                    "test/other.js": _spec("other", ["parses"])},
                   {"test/parse.js": _spec("cookie.parseCookie", ["ignores OWS"]),
                    "test/other.js": _spec("other", [])})
    assert sorted(found(result)) == [("test/other.js", 2, "test-removed"),
                                     ("test/parse.js", 3, "test-removed")]


def test_a_test_class_renamed_with_all_its_tests_keeps_them(tmp_path: Path) -> None:
    """python-attrs/attrs 5aa76a44: `TestLtLeGeGt` became `TestLtLeGeGtNe` when a `ne`
    validator joined the family; its five tests were called removed."""
    base = ("class TestLtLeGeGt:\n    def test_repr(self):\n        assert 1\n\n"
            "    def test_in_all(self):\n        assert 1\n")
    head = base.replace("TestLtLeGeGt", "TestLtLeGeGtNe") + (
        "\n    def test_ne(self):\n        assert 1\n")
    result = check(tmp_path, {"tests/test_v.py": base}, {"tests/test_v.py": head})
    assert found(result) == []
    # its cheating twin: one of them dropped in the rename
    dropped = head.replace("    def test_in_all(self):\n        assert 1\n", "")
    result = check(tmp_path / "twin", {"tests/test_v.py": base}, {"tests/test_v.py": dropped})
    assert [rule for _, _, rule in found(result)] == ["test-removed", "test-removed"]
