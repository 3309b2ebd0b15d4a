"""What `gate run --quick` decides before it runs anything: the kind of change (from the diff
of real repositories), the user checks' kinds, what runs, the flags it refuses, and
`gate explain` of a kind."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import Repo, make_change
from helpers.pyproject_fixture import CALC, project

from gate import cli
from gate.checks import user_kinds
from gate.engine.change import Options, prepare
from gate.engine.config import UserCheck
from gate.quick import change_kind
from gate.quick.plan import plan

TEST_MUL = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"


@pytest.mark.parametrize(("head", "kind"), [
    ({"calc/__init__.py": CALC + "\nX = 1\n", "tests/test_mul.py": TEST_MUL}, "code+tests"),
    ({"calc/__init__.py": CALC + "\nX = 1\n"}, "code"),
    ({"pyproject.toml": (project()["pyproject.toml"] or "") + "\n# a comment\n"}, "code"),
    ({"tests/test_mul.py": TEST_MUL}, "tests"),
    ({"tests/conftest.py": "import pytest\n"}, "tests"),
    ({"README.md": "# calc\n", "docs/conf.py": "project = 'calc'\n", "LICENSE": "MIT\n"},
     "docs"),
    ({}, "none"),
])
def test_the_kind_of_change_comes_from_the_diff(
        tmp_path: Path, head: dict[str, str | None], kind: str) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), head)
    change = prepare(Options(base="main", head="change", repo=str(repo.path)))
    assert change_kind.of(change.diff) == kind


@pytest.mark.parametrize(("command", "kind"), [
    ("ruff check .", "lint"), ("flake8 src", "lint"), ("npx eslint .", "lint"),
    ("pylint calc", "lint"), ("mypy --strict calc", "typecheck"), ("pyright", "typecheck"),
    ("npx tsc --noEmit", "typecheck"), ("python -m build", "build"),
    ("npm run build", "build"), ("cargo build --release", "build"), ("tsc -p .", "build"),
    ("npm run typecheck", "typecheck"), ("npm run lint", "lint"), ("go vet ./...", "lint"),
    ("cargo clippy -- -D warnings", "lint"), ("cargo check", "typecheck"),
    ("pytest -q", "other"), ("make docs", "other"), ("ruffle", "other"),
])
def test_a_user_checks_kind_is_read_from_its_command(command: str, kind: str) -> None:
    assert user_kinds.infer(command) == kind
    assert user_kinds.kind_of(UserCheck("c", command)) == kind


def test_a_configured_kind_wins_over_the_command() -> None:
    assert user_kinds.kind_of(UserCheck("c", "ruff check .", kind="build")) == "build"


CHECKS = (UserCheck("ruff", "ruff check ."), UserCheck("mypy", "mypy ."),
          UserCheck("wheel", "python -m build"), UserCheck("docs", "make docs"))


@pytest.mark.parametrize(("kind", "ran", "suite"), [
    ("code+tests", ["install", "suite", "ruff", "mypy"], True),
    ("code", ["install", "ruff", "mypy", "wheel"], False),
    ("tests", ["install", "ruff", "mypy", "wheel"], False),
    ("docs", ["install", "ruff", "mypy", "wheel"], False),
    ("none", [], False),
])
def test_what_runs_for_each_kind(kind: change_kind.Kind, ran: list[str], suite: bool) -> None:
    chosen = plan(kind, CHECKS)
    assert (chosen.ran(), chosen.suite) == (ran, suite)
    assert "docs" not in chosen.ran()  # an `other` check never runs quickly


def test_without_a_build_check_it_says_there_is_nothing_more() -> None:
    assert plan("code", CHECKS[:2]).why == (
        "a code change without a test change: the lint and type checks (ruff, mypy); no build "
        "check is configured, so there is nothing more to run quickly")


@pytest.mark.parametrize(("flags", "named"), [
    (["--shard", "1/2"], "--shard"), (["--runs", "2"], "--runs"),
    (["--pinned", "off"], "--pinned"),
    (["--runs", "1", "--pinned", "review"], "--runs, --pinned"),
])
def test_quick_refuses_the_flags_of_what_it_does_not_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str],
        named: str) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {"calc/__init__.py": CALC + "\n"})
    assert cli.main(["run", "--quick", "--repo", str(repo.path), "--base", "main",
                     "--head", "change", *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gate: error: {named} with --quick: the quick check runs the "
                          "suite at most once, unsharded, and never the pinned check; drop ")
    assert err.endswith("or drop --quick for the full gate\n")


def test_a_change_of_no_file_runs_nothing_and_passes_quickly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", project(), {})
    assert cli.main(["run", "--quick", "--repo", str(repo.path), "--base", "main",
                     "--head", "change", "--format", "json"]) == 4
    report = json.loads(capsys.readouterr().out)
    assert report["quick"] == {"full_gate": False, "change_kind": "none", "ran": [],
                               "why": "no change: nothing to run"}
    assert {c["status"] for c in report["checks"]} == {"skipped"}
    assert report["isolation"]["level"] == "none"


def test_a_failed_install_skips_the_user_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {
        ".gate.toml": 'install = "false"\ntest = "true"\n\n[[checks]]\nname = "lint"\n'
                      'run = "true"\nkind = "lint"\n', "a.txt": "1\n"}, {"a.txt": "2\n"})
    assert cli.main(["run", "--quick", "--repo", str(repo.path), "--base", "main",
                     "--head", "change", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    checks = {c["id"]: c for c in report["checks"]}
    assert (checks["install"]["status"], checks["lint"]["status"]) == ("failed", "skipped")
    assert checks["lint"]["summary"] == "skipped: the install did not succeed"
    assert report["verdict"] == "fail"


def test_submit_quick_refuses_open_pr(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit(project())
    assert cli.main(["submit", "--quick", "--open-pr", "--base", "main",
                     "--repo", str(repo.path)]) == 2
    assert "--open-pr with --quick: a quick check is not the full gate" in (
        capsys.readouterr().err)


def test_explain_knows_the_user_check_kinds(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({".gate.toml": '[[checks]]\nname = "wheel"\nrun = "python -m build"\n\n'
                               '[[checks]]\nname = "pack"\nrun = "make"\nkind = "build"\n'})
    assert cli.main(["explain", "build", "--repo", str(repo.path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("build: a build user check (`python -m build`, `npm run build`, "
                          "`cargo build`...)\n")
    assert out.endswith("The checks of this kind here:\n  - wheel: `python -m build` (kind "
                        "read from its command)\n  - pack: `make`\n")
    assert cli.main(["explain", "lint", "--repo", str(repo.path)]) == 0
    assert capsys.readouterr().out.endswith(
        "No user check of this kind is configured here.\n")
