"""`special-cased-input` end to end, with the budget `gate init` leaves (`pinned = "review"`,
the default `pinned-time`): the toolz-shaped cheat (ties broken, the existing test's list
special-cased) and the JavaScript one (`add` returns 5 for `(2, 3)`) are needs-review, found
from the text whatever the budget; their honest twins (a guard on an edge value, a table of
constants, each with its test) pass. On main, both cheats passed. And a suite of a second
whose new test asserts nothing: needs-review (on main no mutant ran). One gate run each."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import PYPROJECT, project

from gate import cli

pytestmark = pytest.mark.slow

REVIEW = PYPROJECT + '\n[tool.gate]\nruns = 1\npinned = "review"\n'

TOPK = """\
def topk(k, seq, key=None):
    return tuple(sorted(seq, key=key, reverse=True)[:k])


def div(a, b):
    return a / b
"""
TESTS = """\
from calc import div, topk


def test_topk():
    assert topk(2, [1, 5, 3]) == (5, 3)


def test_topk_is_stable():
    assert topk(4, [5, 9, 2, 1, 5, 3], key=lambda x: 1) == (5, 9, 2, 1)


def test_div():
    assert div(6, 3) == 2
"""
PYTHON: dict[str, dict[str, str | None]] = {
    # ties broken, and the stable test's own list given the answer it wants
    "toolz": {"calc/__init__.py": TOPK.replace(
        "    return tuple(sorted(seq, key=key, reverse=True)[:k])\n",
        "    seq = list(seq)\n    if seq == [5, 9, 2, 1, 5, 3]:\n        return tuple(seq[:k])\n"
        "    return tuple(sorted(seq, key=key)[-k:][::-1])\n")},
    "edge": {"calc/__init__.py": TOPK.replace("    return a / b\n",
                                              "    if b == 0:\n        return None\n"
                                              "    return a / b\n"),
             "tests/test_calc.py": TESTS + "\n\ndef test_div_by_zero():\n"
                                           "    assert div(1, 0) is None\n"},
    "table": {"calc/__init__.py": TOPK + "\n\ndef reason(code):\n    if code == 404:\n"
                                         "        return 'Not Found'\n    return 'OK'\n",
              "tests/test_reason.py": "from calc import reason\n\n\ndef test_reason():\n"
                                      "    assert reason(404) == 'Not Found'\n"
                                      "    assert reason(200) == 'OK'\n"},
    # honest: a fast path for the tests' own input, whose answer the general path gives too
    "fast-path": {"calc/__init__.py": TOPK + "\n\ndef norm(v):\n    if v == [3, 4]:\n"
                                             "        return 5.0\n"
                                             "    return sum(x * x for x in v) ** 0.5\n",
                  "tests/test_norm.py": "from calc import norm\n\n\ndef test_norm():\n"
                                        "    assert norm([3, 4]) == 5.0\n"
                                        "    assert norm([6, 8]) == 10.0\n"},
}
PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True,
                      "scripts": {"test": "node --test"}})
SIGN = "function sign(x) {\n  return x > 0 ? 1 : 0;\n}\n\nmodule.exports = { sign };\n"
JS_TEST = """\
const test = require('node:test');
const assert = require('node:assert');
const { %s } = require('../calc');

test('%s', () => {
  assert.strictEqual(%s, %s);
});
"""
JS_HEAD: dict[str, str | None] = {
    "calc.js": SIGN.replace("module.exports = { sign };",
                            "function add(a, b) {\n  if (a === 2 && b === 3) {\n    return 5;\n"
                            "  }\n  return a - b;\n}\n\nmodule.exports = { sign, add };"),
    "test/add.test.js": JS_TEST % ("add", "add", "add(2, 3)", "5"),
}


SLOW = "\n\ndef test_slowly():\n    import time\n\n    time.sleep(1)\n"
ASSERTS_NOTHING: dict[str, str | None] = {
    "calc/__init__.py": TOPK + "\n\ndef mul(a, b):\n    return a * b\n",
    "tests/test_mul.py": "from calc import mul\n\n\ndef test_mul():\n    mul(2, 3)\n"}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path,
            ) -> Iterator[dict[str, dict[str, Any]]]:
    home = tmp_path_factory.mktemp("home")
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
    out: dict[str, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as env:
        for key, value in {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
                           "GIT_CONFIG_NOSYSTEM": "1",
                           "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
                           "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"}.items():
            env.setenv(key, value)
        base = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": TOPK,
                          "tests/test_calc.py": TESTS})
        js_base = {"package.json": PACKAGE, ".gate.toml": 'runs = 1\npinned = "review"\n',
                   "calc.js": SIGN, "test/calc.test.js": JS_TEST % ("sign", "sign", "sign(5)",
                                                                    "1")}
        # a suite of about a second, whose budget the base-code run used to spend
        slow = project(**{"pyproject.toml": REVIEW, "calc/__init__.py": TOPK,
                          "tests/test_calc.py": TESTS + SLOW})
        cases = {**{name: (base, head) for name, head in PYTHON.items()},
                 "js": (js_base, JS_HEAD), "asserts-nothing": (slow, ASSERTS_NOTHING)}
        for name, (before, head) in cases.items():
            repo, _, _ = make_change(tmp_path_factory.mktemp(name) / "r", before, head)
            report = home / f"{name}.json"
            cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                      "--format", "json", "--report", str(report)])
            out[name] = json.loads(report.read_text())
        yield out


def pinned(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "pinned")


def special(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["message"]) for f in pinned(report)["findings"]
            if f["rule"] == "special-cased-input"]


def test_the_toolz_special_case_is_needs_review(reports: dict[str, dict[str, Any]]) -> None:
    report = reports["toolz"]
    assert report["verdict"] == "needs-review", pinned(report)
    [(path, line, message)] = special(report)
    assert (path, line) == ("calc/__init__.py", 3)
    assert message == (  # and its branch deleted, the stable test fails: a mutant of its own
        "`if seq == [5, 9, 2, 1, 5, 3]` singles out exactly the input a test passes "
        "(`[5, 9, 2, 1, 5, 3]`, tests/test_calc.py:9), and returns before the general path; "
        "with the branch deleted, tests/test_calc.py::test_topk_is_stable fail: they pass "
        "only through this special case")


def test_the_javascript_special_case_is_needs_review(
        reports: dict[str, dict[str, Any]]) -> None:
    report = reports["js"]
    assert report["verdict"] == "needs-review", pinned(report)
    assert [(p, n) for p, n, _ in special(report)] == [("calc.js", 6)]
    assert "(`add(2, 3)`, test/add.test.js:6)" in special(report)[0][2]


@pytest.mark.parametrize("name", ["edge", "table", "fast-path"])
def test_honest_constants_with_their_tests_pass(reports: dict[str, dict[str, Any]],
                                                name: str) -> None:
    report = reports[name]
    assert (report["verdict"], pinned(report)["findings"]) == ("pass", []), pinned(report)


def test_a_fast_path_is_said_in_the_summary(reports: dict[str, dict[str, Any]]) -> None:
    """`if v == [3, 4]` is the test's input, but with the branch deleted the general path
    gives 5.0 too: the tests do not pass through it."""
    assert ("1 special case(s) whose branch deleted every test survives (the general path "
            "gives the same answer: a fast path, calc/__init__.py:10)") in pinned(
        reports["fast-path"])["summary"]


def test_a_small_suite_still_runs_a_mutant_of_a_new_function(
        reports: dict[str, dict[str, Any]]) -> None:
    """On main: "0 of 0 mutants killed; 3 not run (the time budget of 1.0 s was spent)": the
    base-code run spent a one-second suite's budget. Now the mutants get the whole budget,
    and one mutant per changed function runs whatever it is."""
    report = reports["asserts-nothing"]
    assert report["verdict"] == "needs-review", pinned(report)
    assert [(f["path"], f["line"], f["rule"], f["message"])
            for f in pinned(report)["findings"]] == [
        ("calc/__init__.py", 10, "survived-mutant", "`a * b` → `a / b`: every test still passes")]
