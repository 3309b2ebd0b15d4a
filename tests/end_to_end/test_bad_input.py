"""Bad input: a message that says what to do, exit 2, and nothing touched."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.gitrepo import Repo, make_change

from gate import cli


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().err


def test_not_a_git_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_cli(capsys, "scan", "--repo", str(tmp_path), "--base", "main")
    assert code == 2
    assert f"{tmp_path} is not inside a git repository" in err
    assert "pass --repo DIR" in err


def test_repo_that_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_cli(capsys, "scan", "--repo", str(tmp_path / "nope"), "--base", "main")
    assert code == 2
    assert "is not a directory" in err


def test_unknown_base_ref_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    before = repo.snapshot()
    code, err = run_cli(capsys, "run", "--repo", str(repo.path), "--base", "mian")
    assert code == 2
    assert "unknown ref 'mian'" in err
    assert "git fetch origin" in err
    assert repo.snapshot() == before


def test_unknown_head_ref_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main",
                        "--head", "feature/none")
    assert code == 2
    assert "unknown ref 'feature/none'" in err


def test_base_missing_from_a_shallow_clone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, base, _ = make_change(tmp_path / "origin", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", "change",
                    f"file://{origin.path}", str(clone)], check=True)
    # With a remote, the gate fetches the base itself (tests/end_to_end/test_faults.py);
    # without one it cannot, and says what to do.
    subprocess.run(["git", "-C", str(clone), "remote", "remove", "origin"], check=True)
    code, err = run_cli(capsys, "scan", "--repo", str(clone), "--base", base)
    assert code == 2
    assert "shallow clone" in err
    assert "fetch-depth: 0" in err
    assert "git fetch --unshallow" in err


def test_malformed_config_names_file_key_and_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": 'runs = "three"\n'}, {"a.txt": "a\n"})
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main",
                        "--head", "change")
    assert code == 2
    assert ".gate.toml" in err
    assert "'runs' must be a positive integer, got 'three'" in err


def test_unknown_config_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = '[project]\nname = "x"\n\n[tool.gate]\nrun = 3\n'
    repo, _, _ = make_change(tmp_path / "r", {"pyproject.toml": pyproject}, {"a.txt": "a\n"})
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main")
    assert code == 2
    assert "pyproject.toml" in err
    assert "unknown key 'run' in the gate config; did you mean `runs`? known keys:" in err


def test_config_that_is_not_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": "runs = [\n"}, {"a.txt": "a\n"})
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main")
    assert code == 2
    assert ".gate.toml at" in err
    assert "is not valid TOML" in err


def test_git_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({"a.txt": "a\n"})
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main")
    assert code == 2
    assert "git was not found on PATH" in err


def test_runs_must_be_positive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    code, err = run_cli(capsys, "run", "--repo", str(repo.path), "--base", "main", "--runs", "0")
    assert code == 2
    assert "--runs must be at least 1" in err


def test_repo_given_as_a_relative_path_from_a_subdirectory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, base, head = make_change(tmp_path / "r", {"src/a.txt": "a\n"}, {"src/a.txt": "b\n"})
    monkeypatch.chdir(repo.path / "src")
    code = cli.main(["scan", "--repo", os.curdir, "--base", "HEAD~1", "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0
    assert f'"base": "{base}"' in out
    assert f'"head": "{head}"' in out


@pytest.mark.parametrize(("where", "message"), [
    ("missing/r.json", "{d}/missing/r.json: {d}/missing does not exist; create the directory "
                       "or choose another path (checked before the run, so no run is lost)"),
    ("a.txt/r.json", "{d}/a.txt/r.json: {d}/a.txt is not a directory; create the directory "
                     "or choose another path (checked before the run, so no run is lost)"),
    ("out", "{d}/out is a directory: name a file in it, e.g. {d}/out/gate-report.json"),
])
@pytest.mark.parametrize("command", ["run", "scan"])
def test_an_unwritable_report_path_stops_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, where: str,
        message: str) -> None:
    """The suite would record that it ran in `ran`: it must not have started."""
    ran = tmp_path / "ran"
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": (
        f'install = "true"\ntest = "touch {ran}"\nruns = 1\n')}, {"b.txt": "b\n"})
    (tmp_path / "a.txt").write_text("a\n")
    (tmp_path / "out").mkdir()
    code, err = run_cli(capsys, command, "--repo", str(repo.path), "--base", "main",
                        "--head", "change", "--report", str(tmp_path / where))
    assert (code, err) == (2, f"gate: error: --report {message.format(d=tmp_path)}\n")
    assert not ran.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "out", "r"]
    assert list((tmp_path / "out").iterdir()) == []


def test_a_report_path_that_can_be_written_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"b.txt": "b\n"})
    code, _ = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main",
                      "--head", "change", "--report", str(tmp_path / "r.json"))
    assert code == 0
    assert '"verdict": "pass"' in (tmp_path / "r.json").read_text()


def test_a_default_branch_of_another_name_is_suggested(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--base main` where the default branch is `master`: the error names `master`."""
    repo = Repo(tmp_path / "r")
    repo.commit({"a.txt": "a\n"})
    repo.git("branch", "-m", "master")
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "main")
    assert code == 2
    assert "unknown ref 'main'" in err
    assert "Did you mean 'master'?" in err
    code, err = run_cli(capsys, "scan", "--repo", str(repo.path), "--base", "mian")
    assert "Did you mean" not in err
