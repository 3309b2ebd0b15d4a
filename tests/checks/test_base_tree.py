"""What base-tests puts back: the base's whole test tree where the change touched it, the
base's Rust test modules, and the command narrowed to the files put back. Real repositories,
real checkouts; the overlay puts the head's files back, also on Ctrl-C."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks import base_tests, base_tree
from gate.engine import config
from gate.engine.context import DiffContext
from gate.execution import workspace
from gate.execution.overlay import overlay
from gate.lang import rust_test_modules
from gate.outcomes.record import CaseResult
from gate.outcomes.scoped_command import narrowed
from gate.vcs import diff


def plan(tmp_path: Path, base: dict[str, str | None], head: dict[str, str | None],
         leftovers: dict[str, str] | None = None) -> base_tree.BaseTree:
    repo, base_sha, head_sha = make_change(tmp_path / "r", base, head)
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    checkout = workspace.checkout(str(repo.path), head_sha, str(tmp_path / "checkout"))
    for rel, text in (leftovers or {}).items():  # what an install or a test run wrote
        Path(checkout, rel).parent.mkdir(parents=True, exist_ok=True)
        Path(checkout, rel).write_text(text)
    return base_tree.plan(ctx, checkout)


PY_BASE: dict[str, str | None] = {
    "pyproject.toml": "[project]\nname = 'calc'\nversion = '0'\n",
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/__init__.py": "",
    "tests/helpers.py": "EXPECTED = 5\n",
    "tests/data/expected.json": '{"sum": 5}\n',
    "tests/test_calc.py": "def test_add():\n    pass\n",
    "tests/unit/test_more.py": "def test_more():\n    pass\n",
    "other/notes.txt": "kept\n",
}


def test_a_rewritten_data_file_brings_back_the_whole_tree_and_runs_its_tests(
        tmp_path: Path) -> None:
    tree = plan(tmp_path, PY_BASE, {
        "tests/data/expected.json": '{"sum": 6}\n',
        "tests/data/extra.json": "{}\n",
        "tests/helpers.py": "EXPECTED = 6\n",
        "tests/__init__.py": None,
        "other/notes.txt": "changed\n",
    }, leftovers={"tests/__pycache__/helpers.cpython-311.pyc": "x",
                  "tests/data/written-by-install.txt": "x", "build/out.txt": "x"})
    assert tree.files == {
        "tests/data/expected.json": b'{"sum": 5}\n',
        "tests/data/extra.json": None,
        "tests/helpers.py": b"EXPECTED = 5\n",
        "tests/__init__.py": b"",
        "tests/__pycache__/helpers.cpython-311.pyc": None,
        "tests/data/written-by-install.txt": None,
    }
    assert tree.to_run == ["tests/test_calc.py", "tests/unit/test_more.py"]
    assert not tree.configs_changed


def test_a_test_tree_made_a_link_out_of_the_checkout_is_not_walked(tmp_path: Path) -> None:
    """The head points `tests` at a directory outside: nothing there is listed (nor removed
    by the overlay); the base's files come back in place of the link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep\n")
    repo, base_sha, _ = make_change(tmp_path / "r", PY_BASE, {})
    repo.git("rm", "-q", "-r", "tests")
    os.symlink(outside, repo.path / "tests")
    repo.git("add", "tests")
    repo.git("commit", "-q", "-m", "link")
    head_sha = repo.git("rev-parse", "HEAD").strip()
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    checkout = workspace.checkout(str(repo.path), head_sha, str(tmp_path / "checkout"))
    tree = base_tree.plan(ctx, checkout)
    assert not any("precious" in p for p in tree.files)
    with overlay(checkout, tree.files):
        assert Path(checkout, "tests", "helpers.py").read_text() == "EXPECTED = 5\n"
    assert os.path.islink(Path(checkout, "tests"))
    assert (outside / "precious.txt").read_text() == "keep\n"
    assert sorted(p.name for p in outside.iterdir()) == ["precious.txt"]


def test_an_edited_test_file_runs_its_whole_tree_and_head_added_tests_go(
        tmp_path: Path) -> None:
    tree = plan(tmp_path, PY_BASE, {
        "tests/test_calc.py": "def test_add():\n    assert True\n",
        "tests/test_new.py": "def test_new():\n    pass\n",
    })
    assert tree.files == {"tests/test_calc.py": b"def test_add():\n    pass\n",
                          "tests/test_new.py": None}
    assert tree.to_run == ["tests/test_calc.py", "tests/unit/test_more.py"]


def test_a_head_that_only_adds_a_test_file_runs_the_base_tree_without_it(
        tmp_path: Path) -> None:
    """Issue 25: the added file's module body can patch the code for every test."""
    patch = "import calc\n\ncalc.add = lambda a, b: 5\n\n\ndef test_new():\n    pass\n"
    tree = plan(tmp_path, PY_BASE, {"tests/test_zz.py": patch})
    assert tree.files == {"tests/test_zz.py": None}
    assert tree.to_run == ["tests/test_calc.py", "tests/unit/test_more.py"]


def test_a_test_file_pytest_does_not_recurse_into_does_not_run(tmp_path: Path) -> None:
    """marshmallow c8ce7e87: `tests/mypy_test_cases` is in `norecursedirs` (code for mypy,
    one file raises when imported); named on the command line, pytest ran it anyway."""
    base = {**PY_BASE, "pyproject.toml": PY_BASE["pyproject.toml"] + (
        '[tool.pytest.ini_options]\nnorecursedirs = "tests/mypy_test_cases"\n'),
        "tests/mypy_test_cases/test_typing.py": "raise TypeError('for mypy only')\n"}
    tree = plan(tmp_path, base, {"tests/test_calc.py": "def test_add():\n    assert True\n"})
    assert tree.to_run == ["tests/test_calc.py", "tests/unit/test_more.py"]


def test_a_change_outside_the_tests_runs_no_base_test(tmp_path: Path) -> None:
    tree = plan(tmp_path, PY_BASE, {"calc.py": "def add(a, b):\n    return b + a\n"})
    assert (tree.files, tree.to_run) == ({}, [])


def test_a_test_file_beside_the_code_brings_its_snapshots_and_runner_config(
        tmp_path: Path) -> None:
    base: dict[str, str | None] = {
        "src/a.test.js": "test('a', () => {});\n",
        "src/__snapshots__/a.test.js.snap": "exports[`a`] = `1`;\n",
        "jest.config.js": "module.exports = {};\n", "src/a.js": "x\n"}
    tree = plan(tmp_path, base, {
        "src/__snapshots__/a.test.js.snap": "exports[`a`] = `2`;\n",
        "jest.config.js": "module.exports = {testPathIgnorePatterns: ['a']};\n",
        "src/a.js": "y\n"})
    assert tree.files == {"src/__snapshots__/a.test.js.snap": b"exports[`a`] = `1`;\n",
                          "jest.config.js": b"module.exports = {};\n"}
    assert tree.to_run == ["src/a.test.js"]
    assert tree.configs_changed


def test_go_testdata_runs_the_tests_of_its_package(tmp_path: Path) -> None:
    base: dict[str, str | None] = {
        "go.mod": "module m\n", "calc/calc.go": "package calc\n",
        "calc/calc_test.go": "package calc\n", "calc/testdata/want.txt": "5\n",
        "other/other_test.go": "package other\n"}
    tree = plan(tmp_path, base, {"calc/testdata/want.txt": "6\n",
                                 "calc/extra_test.go": "package calc\n"})
    assert tree.files == {"calc/testdata/want.txt": b"5\n", "calc/extra_test.go": None}
    assert tree.to_run == ["calc/calc_test.go"]


RUST = b"""\
pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    #[test]
    fn adds() { assert_eq!(super::add(2, 3), 5); }
}
"""


def test_rust_sources_get_the_base_test_module_and_keep_the_head_code(tmp_path: Path) -> None:
    head = RUST.replace(b"a + b }", b"a + b + 1 }").replace(b"), 5)", b"), 6)")
    tree = plan(tmp_path, {"Cargo.toml": "", "src/lib.rs": RUST.decode(),
                           "src/util.rs": "pub fn f() {}\n"},
                {"src/lib.rs": head.decode(), "src/util.rs": "pub fn f() { }\n"})
    assert tree.files == {"src/lib.rs": RUST.replace(b"a + b }", b"a + b + 1 }")}
    assert tree.to_run == ["src/lib.rs"]


def test_rust_put_back_replaces_removes_and_restores_modules() -> None:
    added = b"\n#[cfg(all(test, unix))]\nmod more {\n    #[test]\n    fn x() {}\n}\n"
    assert rust_test_modules.put_back(RUST, RUST + added) == RUST
    without = RUST[:RUST.index(b"#[cfg(test)]")]
    assert rust_test_modules.put_back(RUST, without) == without.rstrip(b"\n") + (
        b"\n\n" + RUST[RUST.index(b"#[cfg(test)]"):])
    not_a_test = b"mod tests {\n    pub fn helper() {}\n}\n"
    assert rust_test_modules.test_modules(not_a_test) == {}
    assert rust_test_modules.put_back(b"", not_a_test) == not_a_test


def test_the_overlay_puts_the_head_back_with_its_modes_also_on_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    script = tmp_path / "tests" / "run.sh"
    script.write_text("head\n")
    script.chmod(0o755)
    (tmp_path / "tests" / "added.py").write_text("added at head\n")
    with pytest.raises(KeyboardInterrupt), overlay(str(tmp_path), {
            "tests/run.sh": b"base\n", "tests/added.py": None, "tests/data/x.json": b"{}"}):
        assert script.read_text() == "base\n"
        assert not (tmp_path / "tests" / "added.py").exists()
        raise KeyboardInterrupt
    assert script.read_text() == "head\n"
    assert os.stat(script).st_mode & 0o777 == 0o755
    assert (tmp_path / "tests" / "added.py").read_text() == "added at head\n"
    assert not (tmp_path / "tests" / "data" / "x.json").exists()


@pytest.mark.parametrize(("command", "script", "expected"), [
    ("python -m pytest -q", None, "python -m pytest -q t/a.py"),
    ("npm test", "jest --ci", "npm test -- t/a.test.js"),
    ("npm test", "node --test", "npm test -- t/a.test.js"),
    ("npm test", "vitest run", "npm test -- t/a.test.js"),
    ("npm test", "mocha --recursive", "npm test -- t/a.test.js"),
    ("npx jest", None, "npx jest t/a.test.js"),
    ("npm test", "jest --config jest.ci.js", None),  # a value the gate cannot tell from a path
    ("npm test", "tsc && jest", None),
    ("npm test", "node --test test/", None),
    ("cargo test --all-features", None, "cargo test --all-features --test it --test more"),
    ("cargo test -- --nocapture", None, None),
    ("go test -race ./...", None, "go test -race ./calc ./more"),
    ("go test ./... -run X", None, None),
    ("make test", None, None),
])
def test_the_command_is_narrowed_only_when_its_runner_takes_paths(
        tmp_path: Path, command: str, script: str | None, expected: str | None) -> None:
    files = {"python": ["t/a.py"], "npm": ["t/a.test.js"], "npx": ["t/a.test.js"],
             "cargo": ["tests/it.rs", "tests/more/main.rs"],
             "go": ["calc/calc_test.go", "more/x_test.go"], "make": ["t/a.py"]}
    if script is not None:
        (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": script}}))
    assert narrowed(command, files[command.split()[0]], str(tmp_path)) == expected


def test_cargo_runs_every_target_when_a_helper_or_unit_module_is_among_the_files(
        tmp_path: Path) -> None:
    assert narrowed("cargo test", ["tests/common/mod.rs"], str(tmp_path)) is None
    assert narrowed("cargo test", ["src/lib.rs", "tests/it.rs"], str(tmp_path)) is None


MOCHA_BASE = (b"describe('calc', function () {\n"
              b"  it('adds', function () {\n    assert.strictEqual(add(2, 3), 5)\n  })\n\n"
              b"  it('adds negatives', function () {\n    assert.strictEqual(add(-2, -3), -5)\n"
              b"  })\n})\n")


@pytest.mark.parametrize(("name", "pinned"), [
    ("calc > adds", ("test/calc.test.js", 2)),
    ("calc > adds negatives", ("test/calc.test.js", 6)),
    ("suite root > calc > adds negatives", ("test/calc.test.js", 6)),
    ("calc > multiplies", (None, None)),
])
def test_a_failure_the_runner_gave_no_file_is_pinned_to_its_base_definition(
        name: str, pinned: tuple[str | None, int | None]) -> None:
    """Mocha names a failing test by its titles only: base-tests finds it in the base files
    that ran, by the whole title; a title found nowhere stays unpinned."""
    case = CaseResult(name, None, None, "failed")
    files: dict[str, bytes | None] = {"test/calc.test.js": MOCHA_BASE,
                                      "test/other.test.js": b"it('x', () => {})\n"}
    got = base_tests.pin(case, files, ["test/calc.test.js", "test/other.test.js"])
    assert (got.file, got.line) == pinned
