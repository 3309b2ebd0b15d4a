"""check-config on Makefiles: the recipes that `test` and `check` run, compared as commands."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.configcheck import found

from gate.checks.check_config import makefile

MAKEFILE = """\
PYTEST_ARGS = -q
.PHONY: test check unit lint build

test: unit
\t@echo "all tests passed"

unit:
\tpytest $(PYTEST_ARGS) \\
\t    tests/

lint: ; ruff check .

check: lint
\t$(MAKE) test

build:
\tpython -m build
"""
NOTE = "this setting decides what the checks catch"


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("pytest $(PYTEST_ARGS)", "pytest $(PYTEST_ARGS) -k 'not slow'", 7,
     "target `unit` (run by `test`): recipe \"pytest $(PYTEST_ARGS) tests/\" -> "
     "\"pytest $(PYTEST_ARGS) -k 'not slow' tests/\""),
    ("test: unit\n", "test:\n", 4, 'target `test`: prerequisites "unit" -> "(none)"'),
    ("PYTEST_ARGS = -q", "PYTEST_ARGS = -q --deselect tests/test_a.py", 1,
     'variable `PYTEST_ARGS` (used by `unit`): "-q" -> "-q --deselect tests/test_a.py"'),
    ("lint: ; ruff check .", "lint: ; ruff check . --exit-zero", 11,
     'target `lint` (run by `check`): recipe "ruff check ." -> "ruff check . --exit-zero"'),
    ("\t$(MAKE) test\n", "\t-$(MAKE) test\n", 13,
     'target `check`: recipe "$(MAKE) test" -> "-$(MAKE) test"'),
], ids=["recipe-of-prerequisite", "prerequisite-dropped", "variable", "inline-recipe",
        "errors-ignored"])
def test_watched_recipe_changed(tmp_path: Path, old: str, new: str, line: int,
                                message: str) -> None:
    head = MAKEFILE.replace(old, new)
    assert head != MAKEFILE
    assert found(tmp_path, {"Makefile": MAKEFILE}, {"Makefile": head}) == [
        (line, "makefile", f"{message}; {NOTE}")]


def test_target_removed(tmp_path: Path) -> None:
    head = MAKEFILE.replace("unit:\n\tpytest $(PYTEST_ARGS) \\\n\t    tests/\n\n", "")
    assert [message for _, _, message in found(
        tmp_path, {"Makefile": MAKEFILE}, {"Makefile": head})] == [
        f"target `unit` (run by `test`) removed; {NOTE}"]


def test_target_called_through_submake_is_watched(tmp_path: Path) -> None:
    base = "check:\n\t$(MAKE) -s unit\nunit:\n\tgo test ./...\n"
    head = base.replace("go test ./...", "go test -short ./...")
    assert found(tmp_path, {"GNUmakefile": base}, {"GNUmakefile": head}) == [
        (3, "makefile", 'target `unit` (run by `check`): recipe "go test ./..." -> '
         f'"go test -short ./..."; {NOTE}')]


@pytest.mark.parametrize("head", [
    # reformatted: spacing, continuation lines, quoting, comments, echo control
    MAKEFILE.replace("pytest $(PYTEST_ARGS) \\\n\t    tests/", "pytest   $(PYTEST_ARGS) tests/")
    .replace('@echo "all tests passed"', "echo 'all tests passed'  # say so")
    .replace("test: unit\n", "# the whole suite\ntest: unit\n\t# nothing else\n"),
    # a target that neither `test` nor `check` runs
    MAKEFILE.replace("python -m build", "python -m build --wheel"),
    # a new target, and a new variable
    MAKEFILE + "\ndocs:\n\tmkdocs build\n\nDOCS_DIR = site\n",
], ids=["reformatted", "other-target", "added"])
def test_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    assert found(tmp_path, {"Makefile": MAKEFILE}, {"Makefile": head}) == []


def test_parse_reads_rules_variables_and_recipes() -> None:
    parsed = makefile.parse(
        "X := 1\ntest: ARGS = -v\ndefine BODY\ntest: fake\nendef\n"
        "ifdef CI\ntest: a | b\n\tpytest $(ARGS) 'a b'\nendif\n\n\t\n")
    assert parsed.variables == {"X": (1, "1"), "ARGS@test": (2, "-v")}
    assert list(parsed.rules) == ["test"]
    assert parsed.rules["test"].prerequisites == ["a", "b"]
    assert parsed.rules["test"].recipe == ["pytest $(ARGS) 'a b'"]


def test_target_specific_variable_is_watched(tmp_path: Path) -> None:
    base = "test: ARGS = -x\ntest:\n\tpytest $(ARGS)\n"
    head = base.replace("-x", "-x --lf")
    assert found(tmp_path, {"Makefile": base}, {"Makefile": head}) == [
        (1, "makefile", 'variable `ARGS for target test` (used by `test`): "-x" -> "-x --lf"; '
         f"{NOTE}")]
