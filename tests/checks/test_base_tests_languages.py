"""base-tests outside Python: the head edits an assertion to hide a break, in node:test,
Jest, cargo (a `tests/` file and an in-file `mod tests`) and Go; the base's test, put back
over the head's code, fails. Each a real project, run end to end by `gate run`."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import CALC, project

from gate import cli

pytestmark = pytest.mark.slow


def gate_run(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> dict[str, Any]:
    cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change",
              "--format", "json", "--runs", "1", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def failed_where(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["rule"]) for f in check(report, "base-tests")["findings"]]


# --- pytest: the whole base test tree ------------------------------------------------------

READS_DATA = """\
import json
import pathlib

from calc import add

from tests.helpers import pair


def test_add():
    expected = json.loads((pathlib.Path(__file__).parent / "data" / "sums.json").read_text())
    assert add(*pair()) == expected["sum"]
"""


@pytest.mark.usefixtures("offline_pip")
def test_a_head_that_rewrites_test_data_and_a_helper_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No test file changed: the head rewrites what the test reads (its data, a helper);
    the base's tree put back fails on the head's broken code."""
    base = {**project(), "tests/test_calc.py": READS_DATA, "tests/__init__.py": "",
            "tests/helpers.py": "def pair():\n    return 2, 3\n",
            "tests/data/sums.json": '{"sum": 5}\n'}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "calc/__init__.py": CALC.replace("a + b", "a + b + 1"),
        "tests/data/sums.json": '{"sum": 6}\n',
        "tests/helpers.py": "def pair():\n    return 2, 3\n\n\ndef unused():\n    pass\n",
    })
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"].startswith("1 base test file(s) (tests/test_calc.py): ")
    assert failed_where(report) == [("tests/test_calc.py", 9, "base-test-failed")]


# --- node:test (built into node: no install) ---------------------------------------------

NODE_PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                           "scripts": {"test": "node --test"}})
NODE_CALC = "exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n"
NODE_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { add, sub } = require('../calc');

test('adds', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('subtracts', () => {
  assert.strictEqual(sub(5, 3), 2);
});
"""


def node_project() -> dict[str, str | None]:
    return {"package.json": NODE_PACKAGE, "calc.js": NODE_CALC, "test/calc.test.js": NODE_TEST}


def test_node_test_edited_assertion_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", node_project(), {
        "calc.js": NODE_CALC.replace("a + b", "a + b + 1"),
        "test/calc.test.js": NODE_TEST.replace("add(2, 3), 5", "add(2, 3), 6"),
    })
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"].startswith("1 base test file(s) (test/calc.test.js): ")
    assert failed_where(report) == [("test/calc.test.js", 5, "base-test-failed")]
    assert report["verdict"] == "needs-review"


def test_node_test_honest_change_with_a_new_test_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", node_project(), {
        "calc.js": NODE_CALC + "exports.mul = (a, b) => a * b;\n",
        "test/calc.test.js": NODE_TEST + (
            "\ntest('multiplies', () => {\n  assert.strictEqual(require('../calc')"
            ".mul(2, 3), 6);\n});\n"),
    })
    report = gate_run(capsys, repo.path)
    assert check(report, "base-tests")["summary"] == (
        "1 base test file(s) (test/calc.test.js) pass on the head code")
    assert report["verdict"] == "pass", report


def test_node_test_data_file_rewritten_by_the_head_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The test is untouched; the head rewrites the expected data it reads."""
    reads = ("const test = require('node:test');\nconst assert = require('node:assert');\n"
             "const { add } = require('../calc');\n"
             "const expected = require('./fixtures/expected.json');\n\n"
             "test('adds', () => {\n  assert.strictEqual(add(2, 3), expected.sum);\n});\n")
    base = {**node_project(), "test/calc.test.js": reads,
            "test/fixtures/expected.json": '{"sum": 5}\n'}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "calc.js": NODE_CALC.replace("a + b", "a + b + 1"),
        "test/fixtures/expected.json": '{"sum": 6}\n',
    })
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["status"] == "passed"
    assert check(report, "base-tests")["status"] == "failed"
    assert failed_where(report) == [("test/calc.test.js", 6, "base-test-failed")]


# --- Rust: cargo test ----------------------------------------------------------------------

CARGO_TOML = '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n'
RUST_LIB = """\
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }
}
"""
RUST_IT = "#[test]\nfn adds_outside() {\n    assert_eq!(tiny::add(1, 1), 2);\n}\n"


def rust_project() -> dict[str, str | None]:
    return {"Cargo.toml": CARGO_TOML, "src/lib.rs": RUST_LIB, "tests/it.rs": RUST_IT,
            ".gitignore": "target/\n"}


@pytest.mark.usefixtures("cargo_env")
def test_cargo_in_file_test_module_edited_to_hide_a_break_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", rust_project(), {
        "src/lib.rs": RUST_LIB.replace("a + b\n", "a + b + 1\n").replace(
            "add(2, 3), 5", "add(2, 3), 6"),
        "tests/it.rs": RUST_IT.replace("add(1, 1), 2", "add(1, 1), 3"),
    })
    report = gate_run(capsys, repo.path, "--test", "cargo test")
    assert check(report, "suite")["status"] == "passed", check(report, "suite")
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"].startswith(
        "the suite with the base's tests (src/lib.rs, tests/it.rs): ")
    # cargo stops at the first test binary that fails: the unit tests run first
    assert failed_where(report) == [("src/lib.rs", 10, "base-test-failed")]


@pytest.mark.usefixtures("cargo_env")
def test_cargo_integration_test_runs_alone_by_its_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only `tests/it.rs` changed: `cargo test --test it`, and the head's honest code
    passes it."""
    repo, _, _ = make_change(tmp_path / "r", rust_project(), {
        "tests/it.rs": RUST_IT + (
            "\n#[test]\nfn adds_more() {\n    assert_eq!(tiny::add(2, 2), 4);\n}\n"),
    })
    report = gate_run(capsys, repo.path, "--test", "cargo test")
    assert check(report, "base-tests")["summary"] == (
        "1 base test file(s) (tests/it.rs) pass on the head code")
    assert report["verdict"] == "pass", report


# --- Go ------------------------------------------------------------------------------------

@pytest.fixture
def go_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("go") is None:
        # gate: allow skip-markers -- only where go is missing, and says so; .ci/run installs it
        pytest.skip("go is not installed (Debian's golang-go): the Go base-tests need it")
    monkeypatch.setenv("GOCACHE", str(tmp_path / "go-cache"))
    monkeypatch.setenv("GOPATH", str(tmp_path / "go-path"))
    monkeypatch.setenv("GOPROXY", "off")
    monkeypatch.setenv("GOFLAGS", "-mod=mod")


GO_CALC = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
GO_TEST = """\
package calc

import (
\t"os"
\t"strings"
\t"testing"
)

func TestAdd(t *testing.T) {
\tif Add(2, 3) != 5 {
\t\tt.Fatalf("Add(2, 3) = %d", Add(2, 3))
\t}
}

func TestData(t *testing.T) {
\tdata, _ := os.ReadFile("testdata/want.txt")
\tif strings.TrimSpace(string(data)) != "5" {
\t\tt.Fatalf("want.txt says %q", data)
\t}
}
"""


def go_project() -> dict[str, str | None]:
    return {"go.mod": "module example.com/calc\n\ngo 1.19\n", "calc/calc.go": GO_CALC,
            "calc/calc_test.go": GO_TEST, "calc/testdata/want.txt": "5\n"}


@pytest.mark.usefixtures("go_env")
def test_go_edited_assertion_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", go_project(), {
        "calc/calc.go": GO_CALC.replace("a + b", "a + b + 1"),
        "calc/calc_test.go": GO_TEST.replace("!= 5", "!= 6").replace('!= "5"', '!= "6"'),
        "calc/testdata/want.txt": "6\n",
        "calc/extra_test.go": "package calc\n\nimport \"testing\"\n\n"
                              "func TestExtra(t *testing.T) {}\n",
    })
    report = gate_run(capsys, repo.path, "--test", "go test ./...")
    assert check(report, "suite")["status"] == "passed", check(report, "suite")["detail"]
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"].startswith("1 base test file(s) (calc/calc_test.go): ")
    assert [f["message"].split(" fails ")[0] for f in base_tests["findings"]] == [
        "the base version of TestAdd"]


# --- Jest (installed once per session from the registry) -----------------------------------

@pytest.fixture(scope="session")
def jest_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """node_modules with jest, installed once per session (the registry, then npm's cache)."""
    if shutil.which("npm") is None:
        # gate: allow skip-markers -- only where npm is missing, and says so
        pytest.skip("npm is not installed: the Jest base-tests need it")
    where = tmp_path_factory.mktemp("jest")
    (where / "package.json").write_text('{"name": "jest-holder", "private": true}\n')
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund",
                    "jest@29.7.0"], cwd=where, check=True, capture_output=True)
    return where / "node_modules"


def test_jest_edited_assertion_fails_base_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], jest_modules: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    package = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                          "scripts": {"test": "jest"}})
    jest_test = ("const { add } = require('../calc');\n\n"
                 "test('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n")
    repo, _, _ = make_change(tmp_path / "r", {
        "package.json": package, "calc.js": NODE_CALC, "test/calc.test.js": jest_test,
        ".gitignore": "node_modules/\n"}, {
        "calc.js": NODE_CALC.replace("a + b", "a + b + 1"),
        "test/calc.test.js": jest_test.replace("toBe(5)", "toBe(6)"),
    })
    # The project's install links the session's jest in, instead of downloading it again.
    install = f"ln -s {jest_modules} node_modules"
    # Named by the environment, the session's /tmp directory is visible (read-only) inside
    # the boundary, whose /tmp is its own.
    monkeypatch.setenv("NODE_PATH", str(jest_modules))
    report = gate_run(capsys, repo.path, "--install", install, "--test", "npm test")
    assert check(report, "suite")["status"] == "passed", check(report, "suite")
    base_tests = check(report, "base-tests")
    assert base_tests["status"] == "failed", base_tests
    assert base_tests["summary"].startswith("1 base test file(s) (test/calc.test.js): ")
    assert failed_where(report) == [("test/calc.test.js", 3, "base-test-failed")]
