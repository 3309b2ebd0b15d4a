"""Leftovers: test and coverage reports, a second package manager's lockfile, and what the
change un-ignores by editing .gitignore itself (a notice, not a leftover)."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import Repo

from gate.engine import runner
from gate.models import Finding

JS = {"package.json": '{"name": "app", "version": "1.0.0", "scripts": {"test": "vitest"}}\n',
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n", "src/index.ts": "export const x = 1;\n",
      ".gitignore": "node_modules/\npackage-lock.json\n"}
# A run's JUnit report: a root file of some 220 KB in the commit the issue read.
JUNIT = ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vitest" tests="900">\n'
         + '  <testcase classname="src/index.test.ts" name="adds" time="0.001"/>\n' * 3000
         + "</testsuites>\n")


def _policy(tmp_path: Path, base: dict[str, str], head: dict[str, str | None]) -> list[Finding]:
    repo = Repo(tmp_path / "repo")
    repo.commit(base, "base")
    repo.branch("change")
    repo.write(head)
    repo.git("add", "-A")
    repo.git("add", "-f", "--", *[p for p, text in head.items() if text is not None])
    repo.git("commit", "-q", "-m", "head")
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    return list(next(c for c in report.checks if c.id == "diff-policy").findings)


def _rows(found: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.path, f.rule, f.severity) for f in found]


def test_test_and_coverage_reports_are_leftovers(tmp_path: Path) -> None:
    found = _policy(tmp_path, JS, {"junit.xml": JUNIT, "coverage.xml": "<coverage/>\n",
                                   "reports/junit-unit.xml": JUNIT,
                                   "test-results/results.xml": "<x/>\n",
                                   "src/index.test.ts": "test('adds', () => {});\n"})
    assert _rows(found) == [
        ("coverage.xml", "leftover-report", "warning"),
        ("junit.xml", "leftover-report", "warning"),
        ("reports/junit-unit.xml", "leftover-report", "warning"),
        ("test-results/results.xml", "leftover-build-output", "warning"),
    ]


def test_a_report_the_tests_read_or_the_project_keeps_is_not_a_leftover(tmp_path: Path) -> None:
    base = {**JS, "fixtures/junit.xml": "<testsuites/>\n"}
    found = _policy(tmp_path, base, {"tests/fixtures/junit.xml": JUNIT,
                                     "docs/junit.xml": "<testsuites/>\n"})
    assert found == []


def test_a_second_package_managers_lockfile(tmp_path: Path) -> None:
    found = _policy(tmp_path, JS, {"package-lock.json": '{"lockfileVersion": 3}\n'})
    assert _rows(found) == [("package-lock.json", "leftover-lockfile", "warning")]
    assert "a npm lockfile in a project that uses pnpm (pnpm-lock.yaml at the base)" in (
        found[0].message)


def test_a_move_to_another_package_manager_is_not_a_leftover(tmp_path: Path) -> None:
    found = _policy(tmp_path, JS, {"pnpm-lock.yaml": None, "package-lock.json": "{}\n",
                                   ".gitignore": "node_modules/\n"})
    assert _rows(found) == [("package-lock.json", "leftover-ignored", "notice")]


def test_a_file_the_change_unignores_on_purpose_is_a_notice(tmp_path: Path) -> None:
    base = {"package.json": '{"name": "app", "version": "1.0.0"}\n',
            ".gitignore": "node_modules/\npackage-lock.json\n", "index.js": "module.exports = 1;\n"}
    head: dict[str, str | None] = {"package-lock.json": '{"lockfileVersion": 3}\n',
                                   ".gitignore": "node_modules/\n"}
    found = _policy(tmp_path, base, head)
    assert _rows(found) == [("package-lock.json", "leftover-ignored", "notice")]
    assert "un-ignored by the change's own edit of the ignore rules" in found[0].message
