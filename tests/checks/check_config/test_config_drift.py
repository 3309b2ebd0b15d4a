"""A note when the working tree's gate config is not the base's (the one the gate reads), on
real repositories through `gate scan`; none when they agree as parsed tables."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli

BASE_CONFIG = {".gate.toml": "runs = 3\n", "pyproject.toml": "[project]\nname = 'x'\n"}


def note(name: str, base: str) -> str:
    return (f"gate: note: the gate config in the working tree ({name}) differs from the one at "
            f"the base {base[:12]}, which is the one read (a change may not alter its own "
            "gate): commit it on the base branch for it to apply\n")


def scan(capsys: pytest.CaptureFixture[str], repo: Path, base: str, *args: str) -> str:
    """What `gate scan` says of the config, without its note on the uncommitted edits
    (tests/report/test_text_report.py tests that one)."""
    assert cli.main(["scan", "--repo", str(repo), "--base", base, "--format", "json",
                     *args]) in (0, 3)
    return without_uncommitted(capsys.readouterr().err)


def without_uncommitted(err: str) -> str:
    return "".join(line for line in err.splitlines(keepends=True)
                   if "uncommitted change(s)" not in line)


@pytest.mark.parametrize("edit", [
    {},  # the same files
    {".gate.toml": "# three runs\nruns   = 3\n"},  # the same table
    {"pyproject.toml": "[project]\nname = 'y'\n"},  # not the gate's table
])
def test_no_note_when_the_configs_agree(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, str]) -> None:
    repo, base, _ = make_change(tmp_path / "r", BASE_CONFIG, {"a.txt": "a\n"})
    repo.write(edit)
    assert scan(capsys, repo.path, base) == ""


@pytest.mark.parametrize(("edit", "name"), [
    ({".gate.toml": "runs = 1\n"}, ".gate.toml"),  # edited, not committed
    ({".gate.toml": None}, ".gate.toml"),  # deleted: pyproject has no [tool.gate]
    ({".gate.toml": "runs = [\n"}, ".gate.toml"),  # not TOML
])
def test_a_working_tree_edit_gets_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, str | None],
        name: str) -> None:
    repo, base, _ = make_change(tmp_path / "r", BASE_CONFIG, {"a.txt": "a\n"})
    repo.write(edit)
    assert scan(capsys, repo.path, base) == note(name, base)


def test_a_config_committed_on_the_head_gets_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {
        "pyproject.toml": "[tool.gate]\nruns = 1\n"})
    err = scan(capsys, repo.path, "main")
    assert err == note("pyproject.toml", base)


def test_the_config_file_option_is_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"ci/gate.toml": "runs = 2\n"}, {})
    assert scan(capsys, repo.path, base, "--config", "ci/gate.toml") == ""
    repo.write({"ci/gate.toml": "runs = 1\n"})
    assert scan(capsys, repo.path, base, "--config", "ci/gate.toml") == note(
        "ci/gate.toml", base)


def test_a_config_file_missing_at_the_base_is_left_to_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"ci/gate.toml": "runs = 1\n"})
    assert cli.main(["scan", "--repo", str(repo.path), "--base", "main",
                     "--config", "ci/gate.toml"]) == 2
    assert capsys.readouterr().err == (
        f"gate: error: the config file ci/gate.toml is not in the base commit {base[:12]}: "
        "commit it on the base branch, or drop the option\n")


def test_an_invalid_base_config_is_left_to_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": "runs = [\n"}, {})
    repo.write({".gate.toml": "runs = 1\n"})
    assert cli.main(["scan", "--repo", str(repo.path), "--base", "main"]) == 2
    err = without_uncommitted(capsys.readouterr().err)
    assert "note" not in err
    assert err.startswith("gate: error: .gate.toml at ")


def test_the_note_changes_nothing_the_base_config_still_decides(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A working tree (or an agent) that sets `strict = true` or loosens the config only gets
    the note: the verdict is the one the base's config gives."""
    repo, base, _ = make_change(tmp_path / "r", {".gate.toml": "strict = false\n"},
                                {"a.py": "x = 1  # noqa\n"})
    repo.write({".gate.toml": "strict = true\n"})
    assert cli.main(["scan", "--repo", str(repo.path), "--base", "main", "--format",
                     "json"]) == 3  # needs-review, not the fail strict would give
    assert without_uncommitted(capsys.readouterr().err) == note(".gate.toml", base)
