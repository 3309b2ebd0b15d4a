"""`gate checks --propose`: a config proposed from the repository's files."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gate import cli, toml
from gate.adopt import propose
from gate.engine import config
from gate.engine.config import UserCheck


def write(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).write_text(text)
    return str(root)


def test_package_json_scripts(tmp_path: Path) -> None:
    root = write(tmp_path, {"package.json": '{"scripts": {"test": "jest", "build": "tsc", '
                            '"lint": "eslint .", "typecheck": "tsc --noEmit", "dev": "x"}}'})
    assert propose.propose(root) == ("npm test", [
        UserCheck("build", "npm run build"), UserCheck("typecheck", "npm run typecheck"),
        UserCheck("lint", "npm run lint", required=False)])


def test_pyproject_with_mypy_and_ruff_configured_and_installed(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n\n[dependency-groups]\n"
                            "tests = ['pytest', 'mypy>=1.8', 'ruff']\n\n"
                            "[tool.mypy]\nstrict = true\n\n[tool.ruff]\n"})
    checks = [UserCheck("mypy", "python -m mypy"),
              UserCheck("ruff", "ruff check .", required=False)]
    assert propose.propose(root) == ("python -m pytest", checks)
    assert propose.notes(root) == []


def test_a_check_whose_tool_the_install_does_not_bring_is_left_out_with_a_note(
        tmp_path: Path) -> None:
    """Seen: init proposed a required mypy that nothing installed ("No module named mypy")
    and a ruff that gave "command not found" (then optional: still a check that can only
    fail). Left out, with how to add it."""
    root = write(tmp_path, {"pyproject.toml": "[tool.mypy]\nstrict = true\n\n[tool.ruff]\n"})
    _, checks = propose.propose(root)
    assert checks == []
    assert propose.notes(root) == [
        f"`{name}` is not proposed: the detected install does not bring {name}, so `{run}` "
        f"would not be found. To check it, add {name} to the tests' dependency group or extra "
        "(or set `install` in [tool.gate]), then add a check: [[tool.gate.checks]] "
        f'name = "{name}", run = "{run}"'
        for name, run in (("mypy", "python -m mypy"), ("ruff", "ruff check ."))]


def test_plain_pyproject_proposes_only_pytest(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n"})
    assert propose.propose(root) == ("python -m pytest", [])


def test_cargo_go_and_makefile(tmp_path: Path) -> None:
    (tmp_path / "rs").mkdir()
    assert propose.propose(write(tmp_path / "rs", {"Cargo.toml": "[package]\n"})) == (
        "cargo test", [UserCheck("clippy", "cargo clippy -- -D warnings", required=False)])
    (tmp_path / "go").mkdir()
    assert propose.propose(write(tmp_path / "go", {"go.mod": "module x\n"})) == (
        "go test ./...", [UserCheck("vet", "go vet ./...")])
    (tmp_path / "mk").mkdir()
    makefile = "CC := gcc\ncheck: lint\n\t./check.sh\ntest:\n\t./run-tests\n"
    assert propose.propose(write(tmp_path / "mk", {"Makefile": makefile})) == (
        "make test", [UserCheck("make-check", "make check")])


def test_the_printed_config_is_valid_and_round_trips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"package.json": '{"scripts": {"test": "vitest", "lint": "eslint ."}}'})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert cli.main(["checks", "--propose", "--repo", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out == ('[tool.gate]\ntest = "npm test"\n\n[[tool.gate.checks]]\nname = "lint"\n'
                   'run = "npm run lint"\nrequired = false\n')
    parsed = config.parse(toml.loads(out)["tool"]["gate"], "proposal")
    assert (parsed.test, parsed.checks) == (
        "npm test", (UserCheck("lint", "npm run lint", required=False),))
