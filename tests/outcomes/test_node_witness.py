"""The Node preload's witness decides Jest's and Vitest's outcomes: what the command prints or
exits with is held against what the preload sent as the tests ran (real npm, real runners)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change
from helpers.node_packages import JEST, VITEST, installed
from helpers.runners import run_in

from gate import cli

pytestmark = pytest.mark.slow  # vitest and jest from the npm registry

CALC = "export function add(a, b) {\n  return a + b;\n}\n"
VITEST_TEST = """\
import { test, expect } from 'vitest';
import { add } from '../src/calc.js';

test('adds', () => { expect(add(2, 3)).toBe(5); });
test('adds negatives', () => { expect(add(-2, -3)).toBe(-5); });
test('adds zero', () => { expect(add(0, 4)).toBe(4); });
"""
JEST_TEST = VITEST_TEST.replace("import { test, expect } from 'vitest';\n", "").replace(
    "import { add } from '../src/calc.js';", "const { add } = require('../src/calc.js');")
# npm runs the test script through `script-shell`: this one runs the real command, hides
# what it printed and prints a Vitest summary of its own, exiting 0.
FORGING_SHELL = """\
#!/bin/sh
/bin/sh "$@" > /dev/null 2>&1
printf ' Test Files  1 passed (1)\\n      Tests  3 passed (3)\\n'
exit 0
"""


@pytest.fixture(scope="module")
def vitest_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed(tmp_path_factory, VITEST)


@pytest.fixture(scope="module")
def jest_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed(tmp_path_factory, JEST)


def vitest_project(root: Path, modules: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    package = {"name": "calc", "version": "1.0.0", "private": True, "type": "module",
               "scripts": {"test": "vitest run"}}
    for rel, text in {"package.json": json.dumps(package), "src/calc.js": CALC,
                      "test/calc.test.js": VITEST_TEST, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "node_modules").symlink_to(modules)
    return root


def test_an_honest_vitest_run_through_npm_is_witnessed(tmp_path: Path,
                                                       vitest_modules: Path) -> None:
    root = vitest_project(tmp_path / "p", vitest_modules, {})
    run = run_in(root, "npm test")
    assert run.counts is not None and run.counts.complete, run.completed.output[-2000:]
    assert (run.counts.runner, run.counts.describe(), run.counts.evidence) == (
        "vitest", "3/3 tests", ())
    assert run.passed


def test_a_forged_summary_and_exit_status_do_not_pass(tmp_path: Path,
                                                      vitest_modules: Path) -> None:
    """The attack: `.npmrc` points npm's script shell at a wrapper that prints a passing
    Vitest summary and exits 0 while `add` is broken. The preload sent the real outcomes."""
    root = vitest_project(tmp_path / "p", vitest_modules, {
        "src/calc.js": CALC.replace("a + b", "a + b + (a < 0 ? 1 : 0)"),
        ".npmrc": "script-shell=./forge.sh\n", "forge.sh": FORGING_SHELL})
    (root / "forge.sh").chmod(0o755)
    run = run_in(root, "npm test")
    assert run.completed.returncode == 0 and "Tests  3 passed (3)" in run.completed.output
    assert run.counts is not None
    assert run.counts.describe() == "2/3 tests"
    assert [c.name for c in run.failed_tests] == ["adds negatives"]
    assert [e.split(":")[0] for e in run.counts.evidence] == [
        "summary-disagrees", "exit-disagrees"]
    assert not run.passed


def test_a_summary_printed_without_the_runner_is_missing_evidence(
        tmp_path: Path, vitest_modules: Path) -> None:
    """The wrapper never runs Vitest at all: a summary and exit 0, and nothing was sent."""
    root = vitest_project(tmp_path / "p", vitest_modules, {})
    run = run_in(root, "printf ' Test Files  1 passed (1)\\n      Tests  3 passed (3)\\n'")
    assert run.counts is not None
    assert [e.split(":")[0] for e in run.counts.evidence] == ["missing"]


def test_jest_in_workers_is_witnessed_and_its_failure_decides(tmp_path: Path,
                                                              jest_modules: Path) -> None:
    """Jest with two workers, its summary hidden: the preload's outcomes and end decide."""
    root = tmp_path / "p"
    root.mkdir()
    for n in range(3):
        body = JEST_TEST.replace("toBe(-5)", "toBe(-6)") if n == 0 else JEST_TEST
        (root / "test").mkdir(exist_ok=True)
        (root / "test" / f"c{n}.test.js").write_text(body)
    (root / "src").mkdir()
    (root / "src" / "calc.js").write_text(CALC.replace("export function add", "function add")
                                          + "module.exports = { add };\n")
    (root / "package.json").write_text('{"name": "calc", "private": true}\n')
    (root / "node_modules").symlink_to(jest_modules)
    run = run_in(root, "node_modules/.bin/jest -w 2 > /dev/null 2>&1; exit 0")
    assert run.counts is not None and run.counts.runner == "jest"
    assert run.counts.describe() == "8/9 tests"
    assert [e.split(":")[0] for e in run.counts.evidence] == ["exit-disagrees"]
    assert not run.passed


def test_the_forging_shell_does_not_pass_the_gate(
        tmp_path: Path, vitest_modules: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole attack through `gate run`: base-tests runs the base's tests through the same
    shell, so without the witness every run passes."""
    package = {"name": "calc", "version": "1.0.0", "private": True, "type": "module",
               "scripts": {"test": "vitest run"}}
    base = {"package.json": json.dumps(package), "src/calc.js": CALC,
            "test/calc.test.js": VITEST_TEST, ".gitignore": "node_modules/\n"}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "src/calc.js": CALC.replace("a + b", "a + b + (a < 0 ? 1 : 0)"),
        ".npmrc": "script-shell=./forge.sh\n", "forge.sh": FORGING_SHELL})
    repo.git("update-index", "--chmod=+x", "forge.sh")
    repo.git("commit", "-q", "-m", "x")
    monkeypatch.setenv("NODE_PATH", str(vitest_modules))  # visible inside the boundary
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--runs", "1", "--install",
              f"ln -s {vitest_modules} node_modules", "--test", "npm test"])
    report = json.loads(capsys.readouterr().out)
    suite = next(c for c in report["checks"] if c["id"] == "suite")
    harness = next(c for c in report["checks"] if c["id"] == "harness")
    assert report["verdict"] == "fail", suite
    assert suite["status"] == "failed"
    assert "evidence-tampered" in {f["rule"] for f in harness["findings"]}


def test_a_runner_that_a_test_starts_is_not_the_runs(tmp_path: Path,
                                                      vitest_modules: Path) -> None:
    """A plugin's own tests run Vitest on a fixture whose test fails on purpose: the nested
    run's tests are not the run's, though its processes load the preload too."""
    nested = """\
import { test, expect } from 'vitest';
import { spawnSync } from 'node:child_process';

test('the fixture fails', () => {
  const run = spawnSync(process.execPath, ['../node_modules/vitest/vitest.mjs', 'run'],
                        { cwd: 'fixture', encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stdout).toContain('1 failed');
});
"""
    root = vitest_project(tmp_path / "p", vitest_modules, {
        "test/calc.test.js": nested,
        "fixture/broken.test.js": "import { test, expect } from 'vitest';\n"
                                  "test('broken', () => { expect(1).toBe(2); });\n",
        "vitest.config.js": "export default { test: { include: ['test/**/*.test.js'], "
                            "testTimeout: 600000 } };\n"})
    (root / "fixture" / "vitest.config.js").write_text(
        "export default { test: { include: ['*.test.js'] } };\n")
    run = run_in(root, "npm test")
    assert run.counts is not None
    assert (run.counts.describe(), run.counts.evidence) == ("1/1 tests", ()), (
        run.completed.output[-2000:])
    assert run.passed
