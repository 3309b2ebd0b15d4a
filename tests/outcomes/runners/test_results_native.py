"""pytest, unittest and cargo test, run for real: counts, failing tests, definition lines."""
from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from pathlib import Path

import pytest
from helpers.runners import run_in

from gate.outcomes.record import CaseResult

UNITTEST = """\
import unittest


class TestMath(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(1 + 1, 2)

    def test_breaks(self):
        self.assertEqual(1 + 1, 3)

    def test_errors(self):
        raise RuntimeError("boom")

    @unittest.skip("later")
    def test_later(self):
        pass
"""
PY = sys.executable


def test_unittest(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_u.py").write_text(UNITTEST)
    run = run_in(tmp_path, f"{PY} -m unittest discover -s tests")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("unittest", "1/3 tests, 1 skipped")
    # every test named (the gate's sitecustomize), each failure with the summary's message
    assert sorted((dataclasses.replace(c, seconds=None) for c in run.failed_tests),
                  key=lambda c: c.name) == [
        CaseResult("test_u.TestMath.test_breaks", "tests/test_u.py", 8, "failed",
                   "AssertionError: 2 != 3"),
        CaseResult("test_u.TestMath.test_errors", "tests/test_u.py", 11, "failed",
                   "RuntimeError: boom"),
    ]


def test_a_unittest_module_that_does_not_import_is_named_not_collected(tmp_path: Path) -> None:
    """unittest reports it as a test `unittest.loader._FailedTest.<module>`: it is the module,
    not collected, with the import's error (as pytest's collection errors are)."""
    (tmp_path / "tests" / "pkg").mkdir(parents=True)
    (tmp_path / "tests" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "tests" / "pkg" / "test_y.py").write_text("from nowhere import y\n")
    (tmp_path / "tests" / "test_u.py").write_text(UNITTEST)
    run = run_in(tmp_path, f"{PY} -m unittest discover -s tests -t tests")
    failed = {c.name: c.message for c in run.failed_tests}
    assert failed["pkg.test_y"] == "not collected: ModuleNotFoundError: No module named 'nowhere'"
    assert not [name for name in failed if "_FailedTest" in name]


def test_unittest_that_ran_no_test_does_not_pass_although_it_exits_0(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    run = run_in(tmp_path, f"{PY} -m unittest discover -s tests")
    assert run.counts is not None
    assert run.counts.describe() == "0/0 tests"
    assert not run.passed
    assert run.problem() in ("exit 0 but no test ran", "exit 5")  # Python 3.12 exits 5


def test_pytest_through_its_junit_report(tmp_path: Path) -> None:
    (tmp_path / "test_p.py").write_text(
        "import pytest\n\n\ndef test_ok():\n    pass\n\n\n@pytest.mark.skip\n"
        "def test_skip():\n    pass\n\n\ndef test_bad():\n    assert 1 == 2\n")
    run = run_in(tmp_path, f"{PY} -m pytest -q")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("pytest", "1/2 tests, 1 skipped")
    assert [(c.name, c.line) for c in run.failed_tests] == [("test_p.py::test_bad", 13)]


def test_a_conftest_that_prints_passed_lines_and_exits_nonzero_does_not_pass(
    tmp_path: Path,
) -> None:
    (tmp_path / "conftest.py").write_text(
        "import os\n\n\ndef pytest_sessionfinish(session, exitstatus):\n"
        "    print('test_p.py::test_ok PASSED')\n    os._exit(3)\n")
    (tmp_path / "test_p.py").write_text("def test_ok():\n    assert False\n")
    run = run_in(tmp_path, f"{PY} -m pytest -q")
    assert not run.passed
    assert run.problem() == "exit 3: internal error"


CARGO_LIB = """\
pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn adds() { assert_eq!(add(1, 1), 2); }
    #[test]
    fn breaks() { assert_eq!(add(1, 1), 3); }
    #[test]
    #[ignore]
    fn later() {}
}
"""


def test_cargo_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crate = tmp_path / "tiny"
    (crate / "src").mkdir(parents=True)
    (crate / "tests").mkdir()
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n')
    (crate / "src" / "lib.rs").write_text(CARGO_LIB)
    (crate / "tests" / "it.rs").write_text(
        "#[test]\nfn outside() { assert_eq!(tiny::add(2, 2), 4); }\n")
    monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path / "target"))
    monkeypatch.setenv("RUST_BACKTRACE", "0")
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    cargo = shutil.which("cargo")
    assert cargo is not None, "cargo is part of this project's test environment"
    rustup_home = Path(cargo).resolve().parents[2] / ".rustup"  # ~/.cargo/bin/cargo
    if "RUSTUP_HOME" not in os.environ and rustup_home.is_dir():
        monkeypatch.setenv("RUSTUP_HOME", str(rustup_home))
    run = run_in(crate, "cargo test --offline --no-fail-fast")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("cargo test", "2/3 tests, 1 skipped")
    [failure] = run.failed_tests
    assert (failure.name, failure.file, failure.line) == ("tests::breaks", "src/lib.rs", 9)
    assert failure.message.splitlines()[1:] == [
        "assertion `left == right` failed", "left: 2", "right: 3"]
    assert not run.passed


def test_unittests_own_summary_names_a_module_that_does_not_import_not_collected() -> None:
    """Where the gate's recorder did not run (the output is all there is)."""
    from gate.outcomes.runners import unittest as unittest_runner
    output = ("ERROR: pkg.test_y (unittest.loader._FailedTest.pkg.test_y)\n" + "-" * 70 + "\n"
              "ImportError: Failed to import test module: pkg.test_y\nTraceback (most recent "
              "call last):\n  File \"pkg/test_y.py\", line 1, in <module>\n"
              "ModuleNotFoundError: No module named 'nowhere'\n\n\n" + "-" * 70 + "\n"
              "Ran 1 test in 0.001s\n\nFAILED (errors=1)\n")
    counts = unittest_runner.parse(output, "")
    assert counts is not None
    assert [(c.name, c.message) for c in counts.failures()] == [
        ("pkg.test_y", "not collected: ModuleNotFoundError: No module named 'nowhere'")]
