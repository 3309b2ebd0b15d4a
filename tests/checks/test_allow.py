"""Allow comments: `gate: allow CHECK-ID -- reason`, read as comments, never from strings."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks import allow, escapes, registry
from gate.engine import config, runner
from gate.engine.context import DiffContext
from gate.vcs import diff


@pytest.mark.parametrize(("comment", "expected"), [
    ("# gate: allow escapes -- stubs are wrong", allow.Allow("escapes", "stubs are wrong")),
    ("// gate: allow skip-markers --  flaky upstream, issue 7 ",
     allow.Allow("skip-markers", "flaky upstream, issue 7")),
    ("/* gate: allow escapes -- generated */", allow.Allow("escapes", "generated")),
    ("# gate: allow escapes", allow.Allow("escapes", "")),
    ("# gate: allow escapes --", allow.Allow("escapes", "")),
    ("# gate: allow", allow.Allow("", "")),
    ("# allowed by the gate", None),
])
def test_parse(comment: str, expected: allow.Allow | None) -> None:
    assert allow.parse(comment) == expected


def test_allowable_checks_are_the_diff_checks_with_head_lines() -> None:
    assert set(allow.ALLOWABLE) | set(allow.NOT_ALLOWED) == set(registry.DIFF)


def _scan(tmp_path: Path, head: dict[str, str | None]) -> dict[str, object]:
    repo, _, _ = make_change(tmp_path / "repo", {"README.md": "x\n"}, head)
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    return {c.id: (c.status, c.summary, [(f.line, f.rule, f.severity) for f in c.findings])
            for c in report.checks if c.id in ("skip-markers", "escapes")} | {
        "verdict": report.verdict}


def test_allowed_findings_pass_the_check_and_keep_the_reason(tmp_path: Path) -> None:
    head: dict[str, str | None] = {
        "m.py": "import os  # noqa: F401  # gate: allow escapes -- re-exported for plugins\n"}
    assert _scan(tmp_path, head) == {
        "skip-markers": ("passed", "no new skip, xfail or focus markers", []),
        "escapes": ("passed", "1 new type or lint escape(s), all allowed by comments",
                    [(1, "noqa", "notice")]),
        "verdict": "pass",
    }


def test_an_allow_in_a_string_allows_nothing(tmp_path: Path) -> None:
    head: dict[str, str | None] = {
        "m.py": "X = '# gate: allow escapes -- no'\nimport os  # noqa: F401\n"}
    assert _scan(tmp_path, head)["escapes"] == (
        "failed", "1 new type or lint escape(s)", [(2, "noqa", "warning")])


def test_allow_in_a_config_file_without_comments_syntax(tmp_path: Path) -> None:
    """Files the gate does not parse (YAML, TOML) are read line by line."""
    base = "[tool.pytest.ini_options]\naddopts = '-q'\n"
    head = ("[tool.pytest.ini_options]\n"
            "# gate: allow check-config -- quieter output, same tests\naddopts = '-qq'\n")
    repo, _, _ = make_change(tmp_path / "repo", {"pyproject.toml": base},
                             {"pyproject.toml": head})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    check = next(c for c in report.checks if c.id == "check-config")
    assert (check.status, [(f.line, f.severity) for f in check.findings]) == (
        "passed", [(3, "notice")])
    assert check.findings[0].message.endswith("(allowed: quieter output, same tests)")


def test_prose_that_mentions_the_syntax_is_not_an_allow_comment(tmp_path: Path) -> None:
    """A README that explains allow comments is not itself one (no comment marker before it);
    a YAML comment is."""
    repo, base, head = make_change(tmp_path / "r", {"README.md": "x\n", "ci.yml": "a: 1\n"}, {
        "README.md": "An allow comment is an `escapes` finding (`gate: allow`).\n",
        "ci.yml": "a: 1  # gate: allow\n"})
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    result = escapes.run(ctx)
    assert [(f.path, f.line, f.rule) for f in result.findings] == [("ci.yml", 1, "gate: allow")]


def test_a_check_with_notices_of_its_own_is_not_said_as_allowed(tmp_path: Path) -> None:
    """A lockfile changed only in the project's own entries is a notice of the check itself,
    not a finding an allow comment turned into one."""
    lock = {"name": "app", "lockfileVersion": 3, "packages": {
        "": {"name": "app", "dependencies": {"foo": "^1"}},
        "node_modules/foo": {"version": "1.0.0", "resolved": "https://registry.npmjs.org/foo",
                             "integrity": "sha512-x"}}}
    repo, _, _ = make_change(tmp_path / "repo", {"package-lock.json": json.dumps(lock)}, {
        "package-lock.json": json.dumps({**lock, "packages": {
            **lock["packages"], "": {"name": "app", "devDependencies": {"foo": "^1"}}}})})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    checked = next(c for c in report.checks if c.id == "lockfiles")
    assert (checked.status, checked.summary) == ("passed", "1 lockfile(s) changed, notices only")
    assert report.verdict == "pass"
