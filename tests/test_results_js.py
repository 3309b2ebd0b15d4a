"""Jest, Vitest, Mocha and node:test, run for real: counts, failing tests, definition lines."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.runners import run_in

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
    assert run.failed_tests == [CaseResult(
        "math > breaks", "vitest/a.test.mjs", 4, "failed",
        "AssertionError: expected 2 to be 3 // Object.is equality")]


@pytest.mark.slow  # jest, vitest and mocha from the npm registry
def test_mocha(js_project: Path) -> None:
    root = project(js_project, "mocha", {"a.spec.js": ASSERT_JS.replace("test(", "it(")})
    run = run_in(root, "node_modules/.bin/mocha mocha/a.spec.js")
    assert run.counts is not None
    assert (run.counts.runner, run.counts.describe()) == ("mocha", "2/3 tests, 1 skipped")
    assert run.failed_tests == [CaseResult(
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
