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


def test_an_allow_comment_the_change_writes_lowers_nothing(tmp_path: Path) -> None:
    """The waiver of issue 48: the change silences mypy and waives it itself. Without the rule
    (any allow comment honoured) this passed with exit 0."""
    head: dict[str, str | None] = {"m.py": (
        "def f() -> int:\n"
        "    return g()  # type: ignore[return-value]"
        "  # gate: allow escapes -- mypy is wrong here\n")}
    scanned = _scan(tmp_path, head)
    assert scanned["escapes"] == ("failed", "1 new type or lint escape(s)",
                                  [(2, "type: ignore", "warning")])
    assert scanned["verdict"] == "needs-review"


def test_the_changes_reason_is_shown_beside_the_finding(tmp_path: Path) -> None:
    repo, _, _ = make_change(tmp_path / "repo", {"README.md": "x\n"}, {
        "m.py": "import os  # noqa: F401  # gate: allow escapes -- re-exported for plugins\n"})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    found = next(c for c in report.checks if c.id == "escapes").findings
    assert [f.severity for f in found] == ["warning"]
    assert found[0].message.endswith(f"({allow.SELF_WAIVED}: re-exported for plugins)")


def test_a_self_waived_coverage_threshold_needs_review(tmp_path: Path) -> None:
    """The other waiver of issue 48: `fail_under` 90 -> 40 with an allow comment on the line."""
    base = "[tool.coverage.report]\nfail_under = 90\n"
    head = ("[tool.coverage.report]\n"
            "fail_under = 40  # gate: allow check-config -- flaky coverage on CI\n")
    repo, _, _ = make_change(tmp_path / "repo", {"pyproject.toml": base},
                             {"pyproject.toml": head})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    check = next(c for c in report.checks if c.id == "check-config")
    assert (report.verdict, check.status) == ("needs-review", "failed")
    assert [(f.line, f.severity) for f in check.findings] == [(2, "warning")]
    assert "flaky coverage on CI" in check.findings[0].message


_WAIVED = "  # type: ignore[no-any-return]  # gate: allow escapes -- json.loads is Any\n"


def test_a_persons_waiver_at_the_base_carries_with_its_line(tmp_path: Path) -> None:
    """The function moves into a class: its line, waiver and all, moved whole. The escape is
    new to the class's method; the base's waiver, merged by a person, still holds it."""
    repo, _, _ = make_change(
        tmp_path / "repo",
        {"m.py": "import json\n\n\ndef load(path):\n    return json.loads(path)" + _WAIVED},
        {"m.py": ("import json\n\n\nclass Loader:\n    def load(self, path):\n"
                  "        return json.loads(path)" + _WAIVED)})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    found = next(c for c in report.checks if c.id == "escapes").findings
    assert [(f.line, f.severity) for f in found] == [(6, "notice")]
    assert found[0].message.endswith("(allowed: json.loads is Any)")
    assert report.verdict == "pass"


def test_a_waiver_moved_onto_a_new_finding_lowers_nothing(tmp_path: Path) -> None:
    """The base's comment, on a line of its own, is taken from the escape it waived and put
    above a new one: the comment line moved, but not with what it sits on."""
    waiver = "# gate: allow escapes -- the stubs lie\n"
    repo, _, _ = make_change(
        tmp_path / "repo",
        {"m.py": f"{waiver}a = f()  # type: ignore[misc]\nb = g()\n"},
        {"m.py": f"a = f()  # type: ignore[misc]\n{waiver}b = g()  # type: ignore[arg-type]\n"})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    found = next(c for c in report.checks if c.id == "escapes").findings
    assert [(f.line, f.severity) for f in found] == [(3, "warning")]
    assert report.verdict == "needs-review"


def test_an_unchanged_waiver_above_a_changed_line_lowers_nothing(tmp_path: Path) -> None:
    waiver = "# gate: allow escapes -- the stubs lie\n"
    repo, _, _ = make_change(
        tmp_path / "repo", {"m.py": f"{waiver}a = f()  # type: ignore[misc]\n"},
        {"m.py": f"{waiver}a = f(1)  # type: ignore[misc, arg-type]\n"})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    found = next(c for c in report.checks if c.id == "escapes").findings
    assert [(f.line, f.severity) for f in found] == [(2, "warning")]


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
        "failed", [(3, "warning")])
    assert check.findings[0].message.endswith(
        f"({allow.SELF_WAIVED}: quieter output, same tests)")


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


@pytest.mark.parametrize(("path", "spelled"), [
    ("src/a.ts", "// gate: allow escapes -- <reason>"),
    ("main.go", "// gate: allow escapes -- <reason>"),
    ("lib.rs", "// gate: allow escapes -- <reason>"),
    ("web/x.js", "// gate: allow escapes -- <reason>"),
    ("m.py", "# gate: allow escapes -- <reason>"),
    ("pyproject.toml", "# gate: allow escapes -- <reason>"),
    (".github/workflows/ci.yaml", "# gate: allow escapes -- <reason>"),
])
def test_an_allow_comment_is_spelled_in_the_files_own_comment_syntax(path: str,
                                                                     spelled: str) -> None:
    """Issue 49: `# gate: allow` in a .ts file is no comment at all."""
    assert allow.spelled(path, "escapes") == spelled


def test_the_message_on_a_malformed_allow_comment_spells_it_as_the_file_does(
        tmp_path: Path) -> None:
    repo, base, head = make_change(tmp_path / "r", {"README.md": "x\n"},
                                   {"src/a.ts": "const x = 1;  // gate: allow nothing -- why\n"})
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    [found] = escapes.run(ctx).findings
    assert "`// gate: allow CHECK-ID -- <reason>`" in found.message


def test_an_allow_comment_quoted_in_a_docs_prose_is_no_comment(tmp_path: Path) -> None:
    """docs/agents.md spells `# gate: allow CHECK -- reason` in its prose: in Markdown only an
    HTML comment is a comment (the gate called it a malformed allow comment on its own docs)."""
    doc = "An allow comment (`# gate: allow CHECK -- reason`) counts once merged.\n"
    repo, _, _ = make_change(tmp_path / "repo", {"README.md": "x\n"}, {"docs/a.md": doc})
    report = runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))
    checked = next(c for c in report.checks if c.id == escapes.ID)
    assert checked.findings == ()
    assert allow.unparsed_comment("x <!-- gate: allow escapes -- y -->", "a.md").startswith(
        "<!--")
