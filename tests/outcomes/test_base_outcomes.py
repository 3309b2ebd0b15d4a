"""Base outcomes, end to end: the base's suite run once on a fresh checkout of the base, its
per-test outcomes compared with the head's; cached by base SHA and commands."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import PYPROJECT, project

from gate import cli

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("offline_pip")]


def gate_run(capsys: pytest.CaptureFixture[str], repo: Path, *args: str,
             head: str = "change") -> dict[str, Any]:
    cli.main(["run", "--repo", str(repo), "--base", "main", "--head", head, "--runs", "1",
              "--format", "json", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def where(result: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["rule"]) for f in result["findings"]]


TEST_B = """\
from calc import add


class TestAdding:
    def test_small(self):
        assert add(1, 1) == 2

    def test_large(self):
        assert add(10**6, 1) == 10**6 + 1


def test_zero():
    assert add(0, 0) == 0
"""
WITH_TESTPATHS = PYPROJECT + '\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'


def test_a_test_file_renamed_out_of_discovery_names_every_test_that_no_longer_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The classes live on under a new file name outside `testpaths`: no definition is
    removed and the suite is all green; the base's outcomes say what stopped running."""
    base = project(**{"pyproject.toml": WITH_TESTPATHS, "tests/test_b.py": TEST_B})
    repo, _, _ = make_change(tmp_path / "r", base, {
        "tests/test_b.py": None, "legacy/test_b.py": TEST_B})
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 2/2 tests (base 5: 3 no longer run)")
    removed = check(report, "tests-removed")
    assert where(removed) == [("tests/test_b.py", 5, "not-run-at-head"),
                              ("tests/test_b.py", 8, "not-run-at-head"),
                              ("tests/test_b.py", 12, "not-run-at-head")]
    assert removed["findings"][0]["message"] == (
        "`tests/test_b.py::TestAdding::test_small` passed at base and does not run at head: "
        "its file tests/test_b.py was renamed to legacy/test_b.py, out of discovery")
    assert report["verdict"] == "needs-review"


SKIPS_QUIETLY = """\
import pytest

from calc import add, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    vars(pytest)["sk" + "ip"]("later")  # no static rule reads this: the outcomes do
    assert sub(5, 3) == 2
"""


def test_a_test_skipped_at_run_time_by_a_call_no_marker_rule_knows_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {
        "calc/__init__.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n"
                            "    return 0\n",
        "tests/test_calc.py": SKIPS_QUIETLY})
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 1/1 tests, 1 skipped"
    skipped = check(report, "skip-markers")
    assert (skipped["status"], skipped["summary"]) == (
        "failed", "1 test(s) that passed at base are skipped at run time")
    assert where(skipped) == [("tests/test_calc.py", 10, "skipped-at-head")]
    assert skipped["findings"][0]["message"] == (
        "`tests/test_calc.py::test_sub` passed at base and is skipped or xfailed at head, "
        "at run time (later)")
    assert report["verdict"] == "needs-review"


def test_an_honest_change_has_nothing_to_say_about_base_outcomes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {
        "tests/test_more.py": "from calc import add\n\n\ndef test_more():\n"
                              "    assert add(1, 2) == 3\n"})
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 3/3 tests"
    assert where(check(report, "tests-removed")) == []
    assert where(check(report, "skip-markers")) == []
    assert report["verdict"] == "pass", report


COUNTING_CONFTEST = """\
def pytest_sessionstart(session):
    with open({log!r}, "a") as f:
        f.write("session\\n")
"""


def test_the_base_outcomes_are_cached_by_base_sha_and_commands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first change runs the base's suite once beside its own; a second change against
    the same base takes the base's outcomes from the cache; --no-cache runs it again and
    writes nothing."""
    log = tmp_path / "sessions.log"
    repo, _, _ = make_change(tmp_path / "r", project(**{
        "conftest.py": COUNTING_CONFTEST.format(log=str(log))}), {"README": "one\n"})
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gate" / "base-outcomes"
    # --isolation off: its test writes on the host, which the boundary's read-only world refuses
    gate_run(capsys, repo.path, "--isolation", "off")
    assert log.read_text() == "session\n" * 2  # the head's run and the base's
    [entry] = list(cache.iterdir())
    assert entry.suffix == ".json"
    repo.git("checkout", "-q", "main")
    repo.branch("second")
    repo.commit({"README": "two\n"})
    log.write_text("")
    report = gate_run(capsys, repo.path, "--isolation", "off", head="second")
    assert log.read_text() == "session\n"  # the head's run only
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 2/2 tests"
    entry.unlink()
    log.write_text("")
    gate_run(capsys, repo.path, "--isolation", "off", "--no-cache", head="second")
    assert log.read_text() == "session\n" * 2
    assert list(cache.iterdir()) == []


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

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0), 0);
    }
}
"""


@pytest.mark.usefixtures("cargo_env")
def test_a_rust_test_compiled_out_by_a_cfg_no_marker_rule_knows_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The definition is still there (no test removed) and no skip marker is added: a
    feature that is never on compiles the test out. cargo test says every test it ran; the
    base's outcomes say which one no longer runs."""
    repo, _, _ = make_change(tmp_path / "r", {
        "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": RUST_LIB, ".gitignore": "target/\n"}, {
        "src/lib.rs": RUST_LIB.replace("a + b\n", "a * b\n").replace(
            "    #[test]\n    fn adds() {", '    #[test]\n    #[cfg(feature = "slow")]\n'
                                           "    fn adds() {")})
    report = gate_run(capsys, repo.path, "--test", "cargo test")
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests; outcomes as cargo test printed them (no witness of the "
        "gate's own) (base 2: 1 no longer run)")
    removed = check(report, "tests-removed")
    assert where(removed) == [("src/lib.rs", 10, "not-run-at-head")]  # at its fn, at base
    assert removed["findings"][0]["message"] == (
        "`tests::adds` passed at base and does not run at head: its file is still there: "
        "deselected by config (a conftest, a cfg attribute, a filter), or its definition moved "
        "where the runner does not look")


NODE_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../calc');

test('adds', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('adds zero', () => {
  assert.strictEqual(add(0, 0), 0);
});

test('adds negatives', () => {
  assert.strictEqual(add(-1, -1), -2);
});
"""


def test_node_test_tests_that_stop_running_or_skip_at_run_time_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """node:test's TAP names every test: one no longer defined when CI is set, one skipped
    through a computed name; no marker rule spells either."""
    package = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                          "scripts": {"test": "node --test"}})
    calc = "exports.add = (a, b) => a + b;\n"
    head_test = NODE_TEST.replace(
        "test('adds zero', () => {", "if (!process.env.CI) test('adds zero', () => {").replace(
        "test('adds negatives', () => {\n",
        "test('adds negatives', (t) => {\n  return t['sk' + 'ip']('later');\n")
    repo, _, _ = make_change(tmp_path / "r", {
        "package.json": package, "calc.js": calc, "test/calc.test.js": NODE_TEST}, {
        "calc.js": "exports.add = (a, b) => (a < 0 ? 0 : a + b);\n",
        "test/calc.test.js": head_test})
    report = gate_run(capsys, repo.path)
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests, 1 skipped; outcomes as node:test printed them (no "
        "witness of the gate's own) (base 3: 1 no longer run)")
    removed = check(report, "tests-removed")
    assert [f for f in where(removed) if f[2] == "not-run-at-head"] == [
        ("test/calc.test.js", 9, "not-run-at-head")]
    skipped = check(report, "skip-markers")
    assert [f for f in where(skipped) if f[2] == "skipped-at-head"] == [
        ("test/calc.test.js", 13, "skipped-at-head")]
    assert report["verdict"] == "needs-review"


def test_gate_cache_dir_holds_the_entries_and_the_judged_commands_do_not_see_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Action points GATE_CACHE_DIR at the directory its cache step saves; the tests'
    own caches (pip, uv) must not land there, nor may a test learn where it is."""
    own = tmp_path / "gate-cache"
    monkeypatch.setenv("GATE_CACHE_DIR", str(own))
    seen = tmp_path / "seen.txt"
    probe = ("import os\n\n\ndef test_probe():\n"
             f"    open({str(seen)!r}, 'a').write(os.environ.get('GATE_CACHE_DIR', '-') + '\\n')\n")
    repo, _, _ = make_change(tmp_path / "r", project(**{"tests/test_probe.py": probe}),
                             {"README": "one\n"})
    # --isolation off: its test writes on the host, which the boundary's read-only world refuses
    gate_run(capsys, repo.path, "--isolation", "off")
    [entry] = (own / "base-outcomes").iterdir()
    assert entry.suffix == ".json"
    assert set(seen.read_text().split()) == {"-"}


def test_a_base_run_made_with_uv_is_not_reused_for_a_run_that_pip_installs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: a pip base run reused for a uv run gave four harness findings on an empty
    change. The key holds the installer: the same base, another installer, a new base run."""
    log = tmp_path / "sessions.log"
    repo, _, _ = make_change(tmp_path / "r", project(**{
        "conftest.py": COUNTING_CONFTEST.format(log=str(log))}), {"README": "one\n"})
    # --isolation off: its test writes on the host, which the boundary's read-only world refuses
    gate_run(capsys, repo.path, "--isolation", "off")
    log.write_text("")
    monkeypatch.setenv("GATE_NO_UV", "1")
    report = gate_run(capsys, repo.path, "--isolation", "off")
    assert log.read_text() == "session\n" * 2  # the head's run and the base's, again
    assert report["verdict"] == "pass", report
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gate" / "base-outcomes"
    assert len(list(cache.iterdir())) == 2


NEW_CONDITIONAL = """\
import os

import pytest

from calc import add

HAS_OS = hasattr(os, "getcwd")


@pytest.mark.skipif(not HAS_OS, reason="needs os")
def test_runs_here():
    assert add(1, 2) == 3


def test_needs_a_module_missing_here():
    pytest.importorskip("gate_no_such_module")
    assert add(2, 2) == 4
"""


def test_a_new_conditional_skip_is_judged_by_whether_it_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """New tests with conditional skips: the one whose condition held in the runs is a
    finding that says what was missing; the one that ran is a notice of the diff only."""
    repo, _, _ = make_change(tmp_path / "r", project(), {"tests/test_new.py": NEW_CONDITIONAL})
    report = gate_run(capsys, repo.path)
    skipped = check(report, "skip-markers")
    assert [(f["line"], f["rule"], f["severity"]) for f in skipped["findings"]] == [
        (10, "pytest.mark.skipif", "notice"), (16, "pytest.importorskip", "notice"),
        (15, "skipped-at-head", "error")]
    assert "gate_no_such_module" in skipped["findings"][2]["message"]
    assert report["verdict"] == "needs-review"
