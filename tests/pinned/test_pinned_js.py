"""pinned end to end on JavaScript (node:test, no install): a special case for the tests'
input leaves mutants alive; its honest twin, a bug fix with its regression test, passes and
names the test. One gate run per scenario, shared by its asserts."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate import cli

pytestmark = pytest.mark.slow

PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                      "scripts": {"test": "node --test"}})
CONFIG = 'runs = 1\npinned = "review"\npinned-time = 50\n'
CALC = """\
function sign(x) {
  if (x > 0) {
    return 1;
  }
  return 0;
}

module.exports = { sign };
"""
TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { sign } = require('../calc');

test('sign', () => {
  assert.strictEqual(sign(5), 1);
  assert.strictEqual(sign(0), 0);
});
"""
MUL_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { mul } = require('../calc');

test('mul', () => {
  assert.strictEqual(mul(2, 3), 6);
});
"""
SCENARIOS: dict[str, dict[str, str | None]] = {
    "hard-coded": {
        "calc.js": CALC.replace("module.exports = { sign };",
                                "function mul(a, b) {\n  if (a === 2 && b === 3) {\n"
                                "    return 6;\n  }\n  return a + b;\n}\n\n"
                                "module.exports = { sign, mul };"),
        "test/mul.test.js": MUL_TEST,
    },
    "bug-fix": {
        "calc.js": CALC.replace("  return 0;\n}", "  if (x < 0) {\n    return -1;\n  }\n"
                                "  return 0;\n}"),
        "test/calc.test.js": TEST + "\ntest('sign of a negative', () => {\n"
                             "  assert.strictEqual(sign(-3), -1);\n});\n",
    },
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    home = tmp_path_factory.mktemp("home")
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
    out: dict[str, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as env:
        for key, value in {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
                           "GIT_CONFIG_NOSYSTEM": "1",
                           "GIT_CONFIG_GLOBAL": str(home / ".gitconfig")}.items():
            env.setenv(key, value)
        base = {"package.json": PACKAGE, ".gate.toml": CONFIG, "calc.js": CALC,
                "test/calc.test.js": TEST}
        for name, head in SCENARIOS.items():
            repo, _, _ = make_change(tmp_path_factory.mktemp(name) / "r", base, head)
            report = home / f"{name}.json"
            cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                      "--format", "json", "--report", str(report)])
            out[name] = json.loads(report.read_text())
        yield out


def pinned(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "pinned")


def test_js_special_case_for_the_tests_input_leaves_mutants_alive(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["hard-coded"]
    assert report["verdict"] == "needs-review"
    assert [(f["path"], f["line"], f["rule"], f["message"])
            for f in pinned(report)["findings"]] == [
        ("calc.js", 9, "special-cased-input",
         "`if (a === 2 && b === 3)` singles out exactly the input a test passes (`mul(2, 3)`, "
         "test/mul.test.js:6), and returns before the general path; with the branch deleted, "
         "mul fail: they pass only through this special case"),
        ("calc.js", 12, "survived-mutant", "`a + b` → `a - b`: every test still passes"),
    ]
    assert "2 of 3 mutants killed" in pinned(report)["summary"]


def test_js_bug_fix_with_its_regression_test_passes_and_names_it(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["bug-fix"]
    assert report["verdict"] == "pass", pinned(report)
    assert pinned(report)["summary"] == (
        "pinned by 1 test(s) that fail on the base code (sign of a negative); "
        "2 of 2 mutants killed")
