"""Every test named for the runners whose output names only failures: the preloads' reports
read, checked against the runner's printed summary, and unittest run for real through the
gate's sitecustomize (PYTHONPATH), the test command untouched."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import project
from helpers.runners import run_in

from gate import cli
from gate.execution.environment import clean_env
from gate.outcomes import reading
from gate.outcomes.record import CaseResult, Counts
from gate.outcomes.runners import reports

UNWITNESSED = "; outcomes as unittest printed them (no witness of the gate's own)"
UNITTEST = sys.executable + " -m unittest discover -s tests -t ."
TEST_A = """\
import unittest


class TestMath(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(1 + 1, 2)

    def test_breaks(self):
        self.assertEqual(1 + 1, 3)

    @unittest.skip("later")
    def test_later(self):
        pass

    def test_skips_at_run_time(self):
        self.skipTest("not today")

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1, 2)
"""
TEST_B = """\
import unittest


class TestMath(unittest.TestCase):
    def test_adds(self):
        pass
"""


def unittest_project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"tests/__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def outcomes(counts: Counts | None) -> list[tuple[str | None, int | None, str, str]]:
    assert counts is not None
    return sorted((c.file, c.line, c.name, c.outcome) for c in counts.cases)


def test_unittest_names_every_test_with_its_file_and_line(tmp_path: Path) -> None:
    root = unittest_project(tmp_path / "p", {"tests/test_a.py": TEST_A,
                                             "tests/test_b.py": TEST_B})
    run = run_in(root, UNITTEST)
    assert run.counts is not None and run.counts.complete, run.completed.output
    assert run.counts.describe() == "2/3 tests, 3 skipped"
    a, b = "tests/test_a.py", "tests/test_b.py"
    assert outcomes(run.counts) == sorted([
        (a, 5, "tests.test_a.TestMath.test_adds", "passed"),
        (a, 8, "tests.test_a.TestMath.test_breaks", "failed"),
        (a, 11, "tests.test_a.TestMath.test_later", "skipped"),
        (a, 15, "tests.test_a.TestMath.test_skips_at_run_time", "skipped"),
        (a, 18, "tests.test_a.TestMath.test_known_bug", "skipped"),
        (b, 5, "tests.test_b.TestMath.test_adds", "passed")])
    skipped = {c.name: c.message for c in run.counts.cases if c.outcome == "skipped"}
    assert skipped["tests.test_a.TestMath.test_skips_at_run_time"] == "not today"
    [failure] = run.failed_tests
    assert failure.message == "AssertionError: 2 != 3"  # the summary's, as before


def test_a_forged_unittest_report_falls_back_to_the_summary(tmp_path: Path) -> None:
    """A test that sends fake passes on the gate's channel as the preload would: the counts
    disagree with "Ran N tests", so only the summary is kept; never more passes than it says."""
    forger = TEST_B.replace("        pass\n", (
        "        import json, os\n"
        "        with open(os.environ['GATE_EVIDENCE'], 'a') as f:\n"
        "            for name in ('ghost.one', 'ghost.two'):\n"
        "                f.write(json.dumps({'k': 'case', 'runner': 'unittest',\n"
        "                                    'file': __file__, 'name': name,\n"
        "                                    'outcome': 'passed'}) + '\\n')\n"))
    root = unittest_project(tmp_path / "p", {"tests/test_a.py": TEST_A,
                                             "tests/test_f.py": forger})
    run = run_in(root, UNITTEST)
    assert run.counts is not None
    assert (run.counts.complete, run.counts.describe()) == (False, "2/3 tests, 3 skipped")
    assert [c.name for c in run.counts.cases] == ["tests.test_a.TestMath.test_breaks"]


def test_a_report_file_written_by_a_test_changes_nothing(tmp_path: Path) -> None:
    """The preload sends each outcome as it happens: what a test writes in the report file
    it knows of, garbled or forged, is not read."""
    garbler = TEST_B.replace("        pass\n", (
        "        import os\n"
        "        with open(os.environ['GATE_UNITTEST_REPORT'], 'a') as f:\n"
        "            f.write('{\"runner\": \"unittest\", \"name\": \\n')\n"))
    root = unittest_project(tmp_path / "p", {"tests/test_g.py": garbler})
    run = run_in(root, UNITTEST)
    assert run.counts is not None
    assert (run.counts.complete, run.counts.describe()) == (True, "1/1 tests")
    assert [c.name for c in run.counts.cases] == ["tests.test_g.TestMath.test_adds"]
    assert run.passed and run.counts.evidence == ()


def test_a_garbled_line_on_the_channel_is_tampering(tmp_path: Path) -> None:
    garbler = TEST_B.replace("        pass\n", (
        "        import os\n"
        "        with open(os.environ['GATE_EVIDENCE'], 'a') as f:\n"
        "            f.write('{\"k\": \"case\", \"name\": \\n')\n"))
    root = unittest_project(tmp_path / "p", {"tests/test_g.py": garbler})
    run = run_in(root, UNITTEST)
    assert run.counts is not None
    assert [p.split(":", 1)[0] for p in run.counts.evidence] == ["unreadable"]


def test_the_projects_own_sitecustomize_still_runs(tmp_path: Path) -> None:
    """The gate's sitecustomize comes first on PYTHONPATH and hands over to the next one."""
    root = unittest_project(tmp_path / "p", {
        "tests/test_b.py": TEST_B.replace("        pass\n",
                                          "        import builtins\n"
                                          "        assert builtins.CUSTOMIZED\n"),
        "site/sitecustomize.py": "import builtins\nbuiltins.CUSTOMIZED = True\n"})
    run = run_in(root, f'PYTHONPATH="$PYTHONPATH:site" {UNITTEST}')
    assert run.passed, run.completed.output
    assert outcomes(run.counts) == [
        ("tests/test_b.py", 5, "tests.test_b.TestMath.test_adds", "passed")]


def test_the_preloads_are_added_to_the_environment_not_put_in_its_place() -> None:
    env = reading.report_env({"NODE_OPTIONS": "--max-old-space-size=4096",
                              "PYTHONPATH": "/src"}, "/scratch/r.xml")
    assert env["NODE_OPTIONS"] == f"--require={reports.NODE_PRELOAD} --max-old-space-size=4096"
    assert env["PYTHONPATH"].split(":")[0] == reports.PYTHON_PRELOAD_DIR
    assert env["PYTHONPATH"].split(":")[-1] == "/src"
    assert (env["GATE_JS_REPORT"], env["GATE_UNITTEST_REPORT"]) == (
        "/scratch/r.xml.js.jsonl", "/scratch/r.xml.unittest.jsonl")
    assert Path(reports.NODE_PRELOAD).is_file()
    assert (Path(reports.PYTHON_PRELOAD_DIR) / "sitecustomize.py").is_file()
    assert "PYTHONPATH" not in clean_env({"PYTHONPATH": "/x"})  # only test runs get it


# The report as read: every line must read, the counts must be the summary's.
SUMMARY = Counts("jest", 2, 1, 1, (CaseResult("a > breaks", "t/a.test.js", None, "failed",
                                              "Expected: 3"),), complete=False)


def line(**fields: object) -> str:
    return json.dumps({"runner": "jest", "file": "/r/t/a.test.js", "seconds": 0.1,
                       "message": "", **fields}) + "\n"


GOOD = (line(name="a > adds", outcome="passed") + line(name="b", outcome="passed")
        + line(name="a > breaks", outcome="failed", message="from the report")
        + line(name="a > later", outcome="skipped"))


def named(tmp_path: Path, text: str, summary: Counts = SUMMARY) -> Counts:
    report = tmp_path / "r.xml"
    Path(reports.js_report(str(report))).write_text(text)
    return reports.named(summary, str(report))


def test_a_report_that_agrees_with_the_summary_names_every_test(tmp_path: Path) -> None:
    counts = named(tmp_path, GOOD)
    assert counts.complete
    assert (counts.passed, counts.failed, counts.skipped) == (2, 1, 1)
    assert [(c.name, c.outcome, c.file) for c in counts.cases] == [
        ("a > adds", "passed", "/r/t/a.test.js"), ("b", "passed", "/r/t/a.test.js"),
        ("a > breaks", "failed", "/r/t/a.test.js"), ("a > later", "skipped", "/r/t/a.test.js")]
    assert counts.failures()[0].message == "Expected: 3"  # the summary's message is kept


def test_another_runners_lines_are_left_out(tmp_path: Path) -> None:
    other = line(name="m", outcome="passed").replace('"jest"', '"mocha"')
    assert named(tmp_path, other + GOOD).complete


def test_vitest_keeps_the_last_line_of_each_test(tmp_path: Path) -> None:
    summary = Counts("vitest", 1, 0, 0, complete=False)
    text = "".join(line(name="a", outcome=o, id="t1").replace('"jest"', '"vitest"')
                   for o in ("failed", "passed"))
    counts = named(tmp_path, text, summary)
    assert [(c.name, c.outcome) for c in counts.cases] == [("a", "passed")]


@pytest.mark.parametrize("text", [
    GOOD + line(name="ghost", outcome="passed"),  # one pass more than the summary
    GOOD.replace('"skipped"', '"passed"'),  # the same tests, another outcome
    GOOD + "{not json\n",
    GOOD + '["a list"]\n',
    GOOD + line(name="", outcome="passed"),
    GOOD + line(name="x", outcome="flaky"),
    GOOD + line(name="x", outcome="passed", seconds=-1),
    GOOD + line(name="x", outcome="passed", seconds="1"),
    GOOD + line(name="x", outcome="passed", line=0),
    GOOD + line(name="x", outcome="passed", file=7),
    GOOD.encode().decode() + "\udcff\n",
])
def test_a_report_that_does_not_agree_or_read_keeps_the_summary(tmp_path: Path,
                                                                 text: str) -> None:
    report = tmp_path / "r.xml"
    Path(reports.js_report(str(report))).write_bytes(text.encode("utf-8", "surrogateescape"))
    assert reports.named(SUMMARY, str(report)) == SUMMARY


def test_no_report_keeps_the_summary(tmp_path: Path) -> None:
    assert reports.named(SUMMARY, str(tmp_path / "r.xml")) == SUMMARY


@pytest.mark.parametrize("kind", ["fifo", "link", "directory"])
def test_a_report_that_is_not_a_file_keeps_the_summary_without_waiting(
        tmp_path: Path, kind: str) -> None:
    """The judged code could leave a FIFO where the report goes (reading it would hang the
    gate) or a link to a file of its choosing."""
    report = tmp_path / "r.xml"
    path = Path(reports.js_report(str(report)))
    good = tmp_path / "good.jsonl"
    good.write_text(GOOD)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link":
        path.symlink_to(good)
    else:
        (path / "inside").mkdir(parents=True)
    assert reports.named(SUMMARY, str(report)) == SUMMARY
    reports.clear(str(report))  # before the next run
    assert not os.path.lexists(path) and good.read_text() == GOOD


def test_runners_that_name_every_test_themselves_are_left_as_they_are(tmp_path: Path) -> None:
    complete = Counts("node:test", 1, 0, 0, (CaseResult("a", None, None, "passed"),))
    assert named(tmp_path, line(name="b", outcome="passed"), complete) == complete


def test_the_summary_is_read_first_then_the_report(tmp_path: Path) -> None:
    """reading.read: the report names the tests of the runner whose summary was found."""
    report = tmp_path / "r.xml"
    Path(reports.js_report(str(report))).write_text(GOOD)
    output = ("FAIL t/a.test.js\n  \u25cf a \u203a breaks\n\n    Expected: 3\n\n"
              "Tests:       1 failed, 1 skipped, 2 passed, 4 total\n")
    counts = reading.read(output, str(report))
    assert counts is not None and counts.complete
    assert len(counts.cases) == 4
    assert reading.read(output.replace("2 passed, 4", "3 passed, 5"), str(report)) == Counts(
        "jest", 3, 1, 1, (CaseResult("a > breaks", "t/a.test.js", None, "failed",
                                     "Expected: 3"),), complete=False)


def test_a_preload_path_with_a_space_is_left_out_of_node_options() -> None:
    """NODE_OPTIONS is split on spaces by the gate (environment.extended)."""
    env = reports.env("/scratch/r.xml")
    assert (" " in reports.NODE_PRELOAD) == ("NODE_OPTIONS" not in env)



# The whole gate: what stopped running or skips at head is named for unittest and Mocha.
def gate_run(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> dict[str, Any]:
    cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change", "--runs", "1",
              "--format", "json", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


def where(result: dict[str, Any], rule: str) -> list[tuple[str, int]]:
    return [(f["path"], f["line"]) for f in result["findings"] if f["rule"] == rule]


CALC_TESTS = """\
import unittest

from calc import add, sub


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_sub(self):
        self.assertEqual(sub(5, 3), 2)
"""
UNITTEST_GATE = ("--test", "python -m unittest discover -s tests -t .")


@pytest.mark.slow  # whole gate runs, each with fresh environments
@pytest.mark.usefixtures("offline_pip")
def test_a_unittest_test_skipped_at_run_time_at_head_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """self.skipTest reached through a computed name: no marker rule reads it, the
    outcomes do."""
    base = project(**{"tests/__init__.py": "", "tests/test_calc.py": CALC_TESTS})
    head = CALC_TESTS.replace(
        "        self.assertEqual(sub(5, 3), 2)\n",
        "        getattr(self, 'skip' + 'Test')('later')\n        self.assertEqual(sub(5, 3), 2)\n")
    repo, _, _ = make_change(tmp_path / "r", base, {"tests/test_calc.py": head})
    report = gate_run(capsys, repo.path, *UNITTEST_GATE)
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests, 1 skipped" + UNWITNESSED)
    skipped = check(report, "skip-markers")
    assert where(skipped, "skipped-at-head") == [("tests/test_calc.py", 10)]
    assert [f["message"] for f in skipped["findings"] if f["rule"] == "skipped-at-head"] == [
        "`tests.test_calc.TestCalc.test_sub` passed at base and is skipped or xfailed at "
        "head, at run time (later)"]
    assert report["verdict"] == "needs-review"


@pytest.mark.slow  # whole gate runs, each with fresh environments
@pytest.mark.usefixtures("offline_pip")
def test_an_honest_unittest_change_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = project(**{"tests/__init__.py": "", "tests/test_calc.py": CALC_TESTS})
    more = CALC_TESTS.replace("TestCalc", "TestMore").replace("test_add", "test_add_zero")
    repo, _, _ = make_change(tmp_path / "r", base, {"tests/test_more.py": more})
    report = gate_run(capsys, repo.path, *UNITTEST_GATE)
    assert check(report, "suite")["summary"] == "1 of 1 runs passed, 4/4 tests" + UNWITNESSED
    assert where(check(report, "tests-removed"), "not-run-at-head") == []
    assert where(check(report, "skip-markers"), "skipped-at-head") == []
    assert report["verdict"] == "pass", report


@pytest.fixture(scope="session")
def npm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An npm cache with Mocha and Jest in it, filled once per session from the registry: the
    gate's own `npm install` in each fresh checkout then reads it."""
    cache = tmp_path_factory.mktemp("npm-cache")
    warm = tmp_path_factory.mktemp("npm-warm")
    (warm / "package.json").write_text(json.dumps({
        "name": "warm", "version": "1.0.0", "private": True,
        "devDependencies": {"mocha": "^10.0.0", "jest": "^29.0.0"}}))
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                   cwd=warm, env={**os.environ, "npm_config_cache": str(cache)}, check=True,
                   stdout=subprocess.DEVNULL)
    return cache


MOCHA_PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                            "scripts": {"test": "mocha"},
                            "devDependencies": {"mocha": "^10.0.0"}})
MOCHA_CALC = """\
const assert = require('assert');
const { add } = require('../calc');

describe('add', () => {
  it('adds', () => {
    assert.strictEqual(add(2, 3), 5);
  });

  it('adds zero', () => {
    assert.strictEqual(add(0, 0), 0);
  });
});
"""
MOCHA_OTHER = """\
const assert = require('assert');
const { add } = require('../calc');

describe('add', () => {
  it('adds', () => {
    assert.strictEqual(add(1, 1), 2);
  });
});
"""


@pytest.mark.slow  # whole gate runs, npm installs
# gate: allow skip-markers -- Mocha comes from the npm registry
@pytest.mark.skipif(shutil.which("npm") is None,
                    reason="npm is not installed: Mocha comes from the npm registry")
def test_a_mocha_file_renamed_out_of_discovery_names_its_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], npm_cache: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mocha runs ./test/*.{js,cjs,mjs}, not below: a file moved to test/legacy/ no longer
    runs, and no test definition was removed (the diff checks see the tests moved). Another
    file has a test of the same name: a test is its file and name, so that one does not stand
    in for the one that stopped running."""
    monkeypatch.setenv("npm_config_cache", str(npm_cache))
    base = {"package.json": MOCHA_PACKAGE, "calc.js": "exports.add = (a, b) => a + b;\n",
            "test/calc.test.js": MOCHA_CALC, "test/other.test.js": MOCHA_OTHER}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "test/calc.test.js": None, "test/legacy/calc.test.js": MOCHA_CALC})
    report = gate_run(capsys, repo.path, "--install",
                      "npm install --no-audit --no-fund --prefer-offline --loglevel=error")
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests (base 3: 2 no longer run)")
    removed = check(report, "tests-removed")
    assert where(removed, "not-run-at-head") == [("test/calc.test.js", 5),
                                                 ("test/calc.test.js", 9)]
    assert next(f["message"] for f in removed["findings"] if f["rule"] == "not-run-at-head") == (
        "`add > adds` passed at base and does not run at head: its file test/calc.test.js was "
        "renamed to test/legacy/calc.test.js, out of discovery")
    assert report["verdict"] == "needs-review"


JEST_PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                           "scripts": {"test": "jest"}, "jest": {"roots": ["<rootDir>/test"]},
                           "devDependencies": {"jest": "^29.0.0"}})


@pytest.mark.slow  # whole gate runs, npm installs
# gate: allow skip-markers -- Jest comes from the npm registry
@pytest.mark.skipif(shutil.which("npm") is None,
                    reason="npm is not installed: Jest comes from the npm registry")
def test_a_jest_file_moved_out_of_its_roots_names_its_tests_and_an_honest_test_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], npm_cache: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Jest looks under its `roots` only: a test file moved to spec/ keeps every definition
    (the diff checks see a move) and no longer runs; the base outcomes name its tests."""
    monkeypatch.setenv("npm_config_cache", str(npm_cache))
    install = ("--install", "npm install --no-audit --no-fund --prefer-offline --loglevel=error")
    base = {"package.json": JEST_PACKAGE, "calc.js": "exports.add = (a, b) => a + b;\n",
            "test/calc.test.js": MOCHA_CALC.replace("it(", "test("),
            "test/other.test.js": MOCHA_OTHER.replace("it(", "test(")}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "test/calc.test.js": None, "spec/calc.test.js": MOCHA_CALC.replace("it(", "test(")})
    report = gate_run(capsys, repo.path, *install)
    assert check(report, "suite")["summary"] == (
        "1 of 1 runs passed, 1/1 tests (base 3: 2 no longer run)")
    removed = check(report, "tests-removed")
    assert [(f["path"], f["line"], f["message"]) for f in removed["findings"]
            if f["rule"] == "not-run-at-head"] == [
        ("test/calc.test.js", 5, "`add > adds` passed at base and does not run at head: its "
         "file test/calc.test.js was renamed to spec/calc.test.js, out of discovery"),
        ("test/calc.test.js", 9, "`add > adds zero` passed at base and does not run at head: "
         "its file test/calc.test.js was renamed to spec/calc.test.js, out of discovery")]
    assert report["verdict"] == "needs-review"

    repo.git("checkout", "-q", "main")
    repo.git("branch", "-q", "-D", "change")
    repo.branch("change")
    repo.commit({"test/more.test.js": MOCHA_OTHER.replace("it(", "test(").replace(
        "'adds'", "'adds more'")})
    honest = gate_run(capsys, repo.path, *install)
    assert check(honest, "suite")["summary"] == "1 of 1 runs passed, 4/4 tests"
    assert where(check(honest, "tests-removed"), "not-run-at-head") == []
    assert honest["verdict"] == "pass", honest
