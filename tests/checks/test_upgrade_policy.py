"""diff-policy's upgrade rule (`--upgrade NAME==VERSION`) on real repositories: a range that
still excludes the version the change upgrades to is named at its line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.checks import upgrade_policy
from gate.checks.upgrade_policy import Entry
from gate.errors import GateError

PYPROJECT = '[project]\nname = "x"\ndependencies = [\n  "requests>=2.0,<2.30",\n]\n'
PACKAGE = '{\n  "name": "x",\n  "dependencies": {\n    "lodash": "^4.17.0"\n  }\n}\n'
CARGO = '[package]\nname = "x"\n\n[dependencies]\nserde = "1.0"\nrand = { version = "0.7" }\n'


def scan(capsys: pytest.CaptureFixture[str], repo: Path, *upgrades: str) -> dict[str, object]:
    args = [a for u in upgrades for a in ("--upgrade", u)]
    code = cli.main(["scan", "--repo", str(repo), "--base", "main", "--format", "json", *args])
    report = json.loads(capsys.readouterr().out)
    (policy,) = [c for c in report["checks"] if c["id"] == "diff-policy"]
    return {"code": code, "findings": [(f["path"], f["line"], f["rule"], f["message"])
                                       for f in policy["findings"]]}


def test_an_upgrade_that_left_the_range_excluding_it_is_named_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The agent bumped the lockfile (or nothing) but not the range pyproject declares."""
    repo, _, _ = make_change(tmp_path / "r", {"pyproject.toml": PYPROJECT},
                             {"requirements.lock": "requests==2.32.3\n"})
    assert scan(capsys, repo.path, "requests==2.32.3") == {"code": 3, "findings": [(
        "pyproject.toml", 4, "upgrade-not-admitted",
        "requests <2.30,>=2.0 does not admit 2.32.3, the version this change upgrades to "
        "(--upgrade requests==2.32.3): widen or move the range")]}


def test_an_upgrade_that_moved_every_range_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(
        tmp_path / "r", {"pyproject.toml": PYPROJECT, "package.json": PACKAGE},
        {"pyproject.toml": PYPROJECT.replace("<2.30", "<3"),
         "package.json": PACKAGE.replace("^4.17.0", "^4.17.21")})
    assert scan(capsys, repo.path, "requests==2.32.3", "lodash==4.17.21") == {
        "code": 0, "findings": []}
    assert scan(capsys, repo.path, "lodash==5.0.0")["findings"] == [(
        "package.json", 4, "upgrade-not-admitted",
        "lodash ^4.17.21 does not admit 5.0.0, the version this change upgrades to "
        "(--upgrade lodash==5.0.0): widen or move the range")]


def test_a_package_no_manifest_names_is_a_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"Cargo.toml": CARGO}, {"src/lib.rs": "\n"})
    assert scan(capsys, repo.path, "serde==1.0.200", "rand==0.8.5", "tokio==1.0.0") == {
        "code": 3, "findings": [
            ("Cargo.toml", 1, "upgrade-not-found",
             "no manifest names tokio, which this change upgrades (--upgrade tokio==1.0.0)"),
            ("Cargo.toml", 6, "upgrade-not-admitted",
             "rand 0.7 does not admit 0.8.5, the version this change upgrades to "
             "(--upgrade rand==0.8.5): widen or move the range")]}


def test_a_malformed_upgrade_is_exit_2_and_says_the_form(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    assert cli.main(["scan", "--repo", str(repo.path), "--base", "main", "--upgrade",
                     "requests"]) == 2
    assert capsys.readouterr().err == (
        "gate: error: --upgrade 'requests': give the package and the version it is upgraded to, "
        "as NAME==VERSION (requests==2.32.3, lodash==4.17.21)\n")
    with pytest.raises(GateError):
        upgrade_policy.parse_target("==1.0")


@pytest.mark.parametrize(("language", "spec", "version", "admitted"), [
    ("python", ">=2.31", "2.32.3", True),
    ("python", "~=2.31.0", "2.32.3", False),
    ("python", "", "2.32.3", True),
    ("poetry", "^2.31", "2.32.3", True),
    ("poetry", "^2.31", "3.0.0", False),
    ("poetry", "2.31.0", "2.32.3", False),  # Poetry's bare version is exact
    ("npm", "~4.17.0", "4.17.21", True),
    ("npm", "~4.16.0", "4.17.21", False),
    ("npm", "4.x || 5.x", "5.1.0", True),
    ("npm", "1.0.0 - 4.17", "4.17.21", True),
    ("npm", "^0.2.3", "0.3.0", False),
    ("npm", "github:lodash/lodash", "4.17.21", None),
    ("cargo", "1.0", "1.0.200", True),
    ("cargo", "=1.0.100", "1.0.200", False),
    ("cargo", ">=0.7, <0.9", "0.8.5", True),
    ("cargo", "~0.7", "0.8.5", False),
])
def test_ranges_in_each_manifests_language(language: str, spec: str, version: str,
                                           admitted: bool | None) -> None:
    assert upgrade_policy.admits(Entry("m", 1, "p", spec, language), version) is admitted
