"""What pinned reads from a change (real git repositories, no runs): the head's new tests, the
base's code to run them over, the lines that get mutants, the tests that reach a file; and
the head's ways to take its code out of the mutants."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.mutants import lines
from gate.pinned import reach, sides
from gate.vcs import diff

CALC = "def add(a, b):\n    return a + b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def context(tmp_path: Path, base: dict[str, str | None],
            head: dict[str, str | None]) -> DiffContext:
    repo, base_sha, head_sha = make_change(tmp_path / "r", base, head)
    return DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                       diff.changed_files(str(repo.path), base_sha, head_sha))


def test_the_base_code_is_the_base_of_every_changed_source_and_the_tests_stay_the_heads(
        tmp_path: Path) -> None:
    ctx = context(tmp_path, {"calc/__init__.py": CALC, "tests/test_calc.py": TEST,
                             "README.md": "r\n"}, {
        "calc/__init__.py": CALC + "\n\ndef mul(a, b):\n    return a * b\n",
        "calc/new.py": "X = 1\n", "tests/test_calc.py": TEST + "\n# more\n",
        "tests/helpers.py": "H = 1\n", "README.md": "more\n"})
    side = sides.read(ctx)
    assert side.tests == ["tests/test_calc.py"]
    assert side.base_code == {"calc/__init__.py": CALC.encode(), "calc/new.py": None}
    assert side.first_line == ("calc/__init__.py", 5)
    assert [(c.path, sorted(c.lines)) for c in side.code] == [
        ("calc/__init__.py", [5, 6]), ("calc/new.py", [1])]


def test_a_head_that_marks_its_code_generated_keeps_its_mutants(tmp_path: Path) -> None:
    ctx = context(tmp_path, {"calc/__init__.py": CALC}, {
        ".gitattributes": "calc/** linguist-generated\n",
        "calc/__init__.py": CALC.replace("a + b", "a * b")})
    assert [c.path for c in sides.read(ctx).code] == ["calc/__init__.py"]


def test_code_the_base_marked_generated_gets_none(tmp_path: Path) -> None:
    ctx = context(tmp_path, {".gitattributes": "calc/** linguist-generated\n",
                             "calc/__init__.py": CALC},
                  {"calc/__init__.py": CALC.replace("a + b", "a * b")})
    assert sides.read(ctx).code == []


RUST = ("pub fn add(a: u8, b: u8) -> u8 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n"
        "    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 3), 5);\n    }\n}\n")


def test_rust_test_modules_get_no_mutants_and_stay_the_heads_over_the_base_code(
        tmp_path: Path) -> None:
    head = RUST.replace("a + b", "a.wrapping_add(b)").replace(
        "    }\n}\n", "    }\n    #[test]\n    fn wraps() {\n"
        "        assert_eq!(super::add(255, 1), 0);\n    }\n}\n")
    ctx = context(tmp_path, {"src/lib.rs": RUST}, {"src/lib.rs": head})
    side = sides.read(ctx)
    assert side.rust_tests == ["src/lib.rs"]
    assert [sorted(c.lines) for c in side.code] == [[2]]
    over = (side.base_code["src/lib.rs"] or b"").decode()
    assert "a + b" in over and "fn wraps()" in over


def test_the_tests_that_reach_a_file_name_its_module(tmp_path: Path) -> None:
    ctx = context(tmp_path, {"calc/__init__.py": CALC, "calc/money.py": "M = 1\n",
                             "tests/test_calc.py": TEST,
                             "tests/test_money.py": "from calc import money\n",
                             "pkg/a.go": "package pkg\n", "pkg/a_test.go": "package pkg\n",
                             "other/b_test.go": "package other\n"},
                  {"calc/money.py": "M = 2\n"})
    assert reach.tests_of(ctx, "calc/money.py") == ["tests/test_money.py"]
    assert reach.tests_of(ctx, "calc/__init__.py") == ["tests/test_calc.py",
                                                       "tests/test_money.py"]
    assert reach.tests_of(ctx, "pkg/a.go") == ["pkg/a_test.go"]
    assert reach.tests_of(ctx, "src/lib.rs") == []


def test_the_budget_leaves_lines_out_and_counts_them(tmp_path: Path) -> None:
    body = "".join(f"\n\ndef f{i}(a):\n    return a + {i}\n" for i in range(30))
    ctx = context(tmp_path, {"calc/__init__.py": CALC}, {"calc/__init__.py": CALC + body})
    chosen = lines.choose(sides.read(ctx).code, 20)
    assert (len(chosen.mutants), chosen.over_budget, chosen.nothing_to_test) == (20, 10, 30)
