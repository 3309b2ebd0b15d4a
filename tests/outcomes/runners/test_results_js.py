"""Jest, Vitest, Mocha and node:test, run for real: counts, failing tests, definition lines,
and every test named from the gate's Node preload when its report agrees with the summary."""
from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path

import pytest
from helpers.runners import run_in

from gate.outcomes import testrun
from gate.outcomes.record import CaseResult

ASSERT_JS = """\
const assert = require('assert');
describe('math', () => {
  it('adds', () => { assert.strictEqual(1 + 1, 2); });
  it('breaks', () => { assert.strictEqual(1 + 1, 3); });
  it.skip('later', () => {});
});
test('top level', () => {});
"""
VITEST_JS = ("import { describe, it, test, expect } from 'vitest';\n"
             + ASSERT_JS.split("\n", 1)[1].replace("assert.strictEqual(1 + 1, 2)",
                                                   "expect(1 + 1).toBe(2)")
             .replace("assert.strictEqual(1 + 1, 3)", "expect(1 + 1).toBe(3)"))
MOCHA_JS = ASSERT_JS.replace("test(", "it(")


def failures(run: testrun.TestRun) -> list[CaseResult]:
    """The failing tests, without how long each took (where the runner says)."""
    return [dataclasses.replace(c, seconds=None) for c in run.failed_tests]


@pytest.fixture(scope="session")
def js_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jest, vitest and mocha from the npm registry, installed once per session."""
    root = tmp_path_factory.mktemp("js")
    (root / "package.json").write_text('{"name": "fixture", "version": "1.0.0", "private": true}')
    env = {**os.environ, "npm_config_cache": str(tmp_path_factory.mktemp("npm-cache"))}
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "jest@29", "vitest@3", "mocha@10"], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return root


def project(js_project: Path, name: str, files: dict[str, str]) -> Path:
    """A directory of the fixture project for one test, sharing its node_modules."""
    for rel, text in files.items():
        path = js_project / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return js_project


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_jest(js_project: Path) -> None:
    root = project(js_project, "jest", {"a.test.js": ASSERT_JS})
    run = run_in(root, "node_modules/.bin/jest jest/")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("jest", "2/3 tests, 1 skipped")
    [failure] = run.failed_tests
    assert (failure.name, failure.file, failure.line) == ("math > breaks", "jest/a.test.js", 4)
    assert "Expected value to strictly be equal to:" in failure.message
    assert not run.passed


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_vitest(js_project: Path) -> None:
    source = ("import { describe, it, test, expect } from 'vitest';\n"
              + ASSERT_JS.split("\n", 1)[1].replace("assert.strictEqual(1 + 1, 2)",
                                                    "expect(1 + 1).toBe(2)")
              .replace("assert.strictEqual(1 + 1, 3)", "expect(1 + 1).toBe(3)"))
    root = project(js_project, "vitest", {"a.test.mjs": source})
    run = run_in(root, "node_modules/.bin/vitest run vitest/")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("vitest", "2/3 tests, 1 skipped")
    assert failures(run) == [CaseResult(
        "math > breaks", "vitest/a.test.mjs", 4, "failed",
        "AssertionError: expected 2 to be 3 // Object.is equality")]


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_mocha(js_project: Path) -> None:
    root = project(js_project, "mocha", {"a.spec.js": ASSERT_JS.replace("test(", "it(")})
    run = run_in(root, "node_modules/.bin/mocha mocha/a.spec.js")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("mocha", "2/3 tests, 1 skipped")
    assert failures(run) == [CaseResult(
        "math > breaks", "mocha/a.spec.js", 4, "failed",
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:")]


def test_node_test(tmp_path: Path) -> None:
    source = ("const { describe, it, test } = require('node:test');\n" + ASSERT_JS)
    (tmp_path / "a.test.js").write_text(source)
    run = run_in(tmp_path, "node --test")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("node:test", "2/3 tests, 1 skipped")
    assert run.failed_tests == [CaseResult(
        "math > breaks", "a.test.js", 5, "failed", "Expected values to be strictly equal:")]


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_a_passing_jest_run_passes(js_project: Path) -> None:
    root = project(js_project, "jest-ok", {"ok.test.js": "test('fine', () => {});\n"})
    run = run_in(root, "node_modules/.bin/jest jest-ok/")
    assert run.counts is not None
    assert run.counts.describe() == "1/1 tests"
    assert run.passed


def test_passed_lines_printed_by_a_script_that_exits_nonzero_do_not_pass(tmp_path: Path) -> None:
    """The output looks like a node:test success, the exit status says otherwise."""
    run = run_in(tmp_path, "printf '# tests 3\\n# pass 3\\n# fail 0\\n'; exit 1")
    assert run.counts is not None
    assert run.counts.describe() == "3/3 tests"
    assert not run.passed
    assert run.problem() == "exit 1"


# Every test named, from the gate's Node preload (NODE_OPTIONS), checked against the summary.
EVERY_TEST = [("math > adds", "passed"), ("math > breaks", "failed"),
              ("math > later", "skipped"), ("top level", "passed")]
FORGER = """\
const fs = require('fs');
test('forges', () => {
  for (const name of ['ghost one', 'ghost two']) {
    fs.appendFileSync(process.env.GATE_EVIDENCE, JSON.stringify(
      {k: 'case', runner: RUNNER, file: __filename, name, outcome: 'passed', seconds: 0}) + '\\n');
  }
});
"""


def _named(run: testrun.TestRun, file: str) -> list[tuple[str, str]]:
    assert run.counts is not None
    assert run.counts.complete, run.completed.output[-2000:]
    assert {c.file for c in run.counts.cases} == {file}
    return sorted((c.name, c.outcome) for c in run.counts.cases)


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_jest_names_every_test_with_its_file(js_project: Path) -> None:
    root = project(js_project, "jest-named", {"a.test.js": ASSERT_JS})
    run = run_in(root, "node_modules/.bin/jest jest-named/")
    assert _named(run, "jest-named/a.test.js") == EVERY_TEST
    [failure] = run.failed_tests  # the summary's message and the definition line are kept
    assert (failure.name, failure.line) == ("math > breaks", 4)
    assert "Expected value to strictly be equal to:" in failure.message
    assert run.counts is not None and run.counts.describe() == "2/3 tests, 1 skipped"


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
@pytest.mark.parametrize("pool", ["forks", "threads"])
def test_vitest_names_every_test_with_its_file(js_project: Path, pool: str) -> None:
    root = project(js_project, f"vitest-named-{pool}", {"a.test.mjs": VITEST_JS})
    run = run_in(root, f"node_modules/.bin/vitest run --pool={pool} vitest-named-{pool}/")
    assert _named(run, f"vitest-named-{pool}/a.test.mjs") == EVERY_TEST
    assert [c.line for c in run.failed_tests] == [4]


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_mocha_names_every_test_with_its_file(js_project: Path) -> None:
    root = project(js_project, "mocha-named", {"a.spec.js": MOCHA_JS})
    run = run_in(root, "node_modules/.bin/mocha mocha-named/a.spec.js")
    assert _named(run, "mocha-named/a.spec.js") == EVERY_TEST
    [failure] = run.failed_tests
    assert failure.message == (
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:")


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
@pytest.mark.parametrize("runner", ["jest", "mocha"])
def test_two_runs_in_one_command_are_counted_and_named_together(js_project: Path,
                                                               runner: str) -> None:
    """`jest unit; jest e2e`: both runs' summaries add up (the last one alone was read), so
    the preload's report, which has both runs' tests, agrees with them and names each."""
    body = ASSERT_JS if runner == "jest" else MOCHA_JS
    root = project(js_project, f"{runner}-twice", {"a.test.js": body, "b.test.js": body})
    bin_ = f"node_modules/.bin/{runner}"
    run = run_in(root, f"{bin_} {runner}-twice/a.test.js; {bin_} {runner}-twice/b.test.js")
    assert run.counts is not None and run.counts.complete, run.completed.output[-2000:]
    assert run.counts.describe() == "4/6 tests, 2 skipped"
    assert {c.file for c in run.counts.cases} == {f"{runner}-twice/a.test.js",
                                                 f"{runner}-twice/b.test.js"}
    assert [(c.file, c.name) for c in run.failed_tests] == [
        (f"{runner}-twice/a.test.js", "math > breaks"),
        (f"{runner}-twice/b.test.js", "math > breaks")]


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_mocha_tests_skipped_at_run_time_and_in_parallel_are_named(js_project: Path) -> None:
    """`this.skip()` is a skip like `it.skip`; with --parallel the workers' events reach the
    main process's runner, each test once."""
    skips = "describe('s', function () {\n  it('quietly', function () { this.skip(); });\n});\n"
    root = project(js_project, "mocha-par", {"a.spec.js": MOCHA_JS, "b.spec.js": skips})
    run = run_in(root, "node_modules/.bin/mocha --parallel --jobs 2 'mocha-par/*.spec.js'")
    assert run.counts is not None and run.counts.complete, run.completed.output[-2000:]
    assert sorted((c.file, c.name, c.outcome) for c in run.counts.cases) == sorted(
        [("mocha-par/a.spec.js", n, o) for n, o in EVERY_TEST]
        + [("mocha-par/b.spec.js", "s > quietly", "skipped")])


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
@pytest.mark.parametrize(("runner", "command", "name"), [
    ("jest", "node_modules/.bin/jest forged-jest/", "forges.test.js"),
    ("vitest", "node_modules/.bin/vitest run forged-vitest/", "forges.test.mjs"),
    ("mocha", "node_modules/.bin/mocha 'forged-mocha/*.spec.js'", "forges.spec.js"),
])
def test_passes_forged_on_the_channel_are_tampering_and_add_nothing(
        js_project: Path, runner: str, command: str, name: str) -> None:
    """A test that sends fake passes on the gate's channel as the preload once did: they are
    not in the preload's chain, so they are tampering, and the outcomes are the preload's."""
    forger = FORGER.replace("RUNNER", repr(runner))
    if runner == "vitest":
        forger = ("import { test } from 'vitest';\nimport fs from 'fs';\n"
                  "const __filename = 'x';\n" + forger.split("\n", 1)[1])
    if runner == "mocha":
        forger = forger.replace("test(", "it(")
    source = {"jest": ASSERT_JS, "vitest": VITEST_JS, "mocha": MOCHA_JS}[runner]
    test_name = {"jest": "a.test.js", "vitest": "a.test.mjs", "mocha": "a.spec.js"}[runner]
    root = project(js_project, f"forged-{runner}", {test_name: source, name: forger})
    run = run_in(root, command)
    assert run.counts is not None
    assert (run.counts.runner, run.counts.complete) == (runner, True)
    assert run.counts.describe() == "3/4 tests, 1 skipped"
    assert "ghost one" not in {c.name for c in run.counts.cases}
    assert [c.name for c in run.failed_tests] == ["math > breaks"]
    assert [e.split(":")[0] for e in run.counts.evidence] == ["unreadable"]
