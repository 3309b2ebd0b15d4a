"""The base-outcome cache's key holds everything that decides the base's outcomes: the
commands as they run (detected ones resolved from the base's files), the installer and its
version, the interpreter, the platform and the gate's version. Each part changed gives
another key, so a new base run (the end-to-end run is in test_base_outcomes.py)."""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import Repo
from helpers.pyproject_fixture import project

from gate.execution import toolchain
from gate.outcomes import detect, outcome_cache


@pytest.fixture
def based(tmp_path: Path) -> tuple[Repo, str]:
    repo = Repo(tmp_path / "r")
    return repo, repo.commit(project(), "base")


def test_a_detected_command_is_keyed_as_it_runs_not_as_it_was_configured(
        based: tuple[Repo, str], tmp_path: Path) -> None:
    """No config and a config that spells out what detection finds are one key: the key
    holds the resolved commands (read from the base's files, not from a checkout)."""
    repo, sha = based
    checkout = tmp_path / "files"
    checkout.mkdir()
    for name, text in project().items():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text(text)
    install, test = detect.install_command(str(checkout)), detect.test_command(str(checkout))
    detected = outcome_cache.key(str(repo.path), sha, None, None)
    assert outcome_cache.key(str(repo.path), sha, install, test) == detected
    assert outcome_cache.key(str(repo.path), sha, "pip install -e .", test) != detected
    assert outcome_cache.key(str(repo.path), sha, None, "python -m pytest -x") != detected


def test_pip_instead_of_uv_is_another_key(based: tuple[Repo, str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: a base run made with pip reused for a run that uv installs (other versions,
    other plugins) gave four harness findings on an empty change."""
    repo, sha = based
    with_uv = outcome_cache.key(str(repo.path), sha, None, None)
    monkeypatch.setenv("GATE_NO_UV", "1")
    assert outcome_cache.key(str(repo.path), sha, None, None) != with_uv
    assert "pip (no uv)" in toolchain.identity()
    # configured commands too: the environment is made by another tool
    configured = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest")
    monkeypatch.delenv("GATE_NO_UV")
    assert outcome_cache.key(str(repo.path), sha, "true", "python -m pytest") != configured


def test_another_interpreter_is_another_key(based: tuple[Repo, str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    repo, sha = based
    before = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    other = bin_dir / "python3"
    other.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    other.chmod(other.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert any(part.startswith(f"python {other} ") for part in toolchain.identity())
    assert outcome_cache.key(str(repo.path), sha, "true", "python -m pytest") != before


def test_the_platform_and_the_gates_version_are_in_the_key(
        based: tuple[Repo, str], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, sha = based
    before = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest")
    monkeypatch.setattr(toolchain, "__version__", "99.0")
    newer = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest")
    assert newer != before
    monkeypatch.setattr(toolchain.platform, "machine", lambda: "riscv64")
    assert outcome_cache.key(str(repo.path), sha, "true", "python -m pytest") != newer
    assert any(part.startswith("Linux riscv64") for part in toolchain.identity())


def test_the_same_tools_and_commands_are_the_same_key(based: tuple[Repo, str]) -> None:
    repo, sha = based
    assert (outcome_cache.key(str(repo.path), sha, None, None)
            == outcome_cache.key(str(repo.path), sha, None, None))
    assert (outcome_cache.key(str(repo.path), sha, None, None, "shard 1/2")
            != outcome_cache.key(str(repo.path), sha, None, None))


def test_the_workflow_that_names_the_tests_extra_is_read_for_the_key(tmp_path: Path) -> None:
    """Detection reads the CI workflow for the tests' extra: the key resolves it the same
    way, so the key of no config equals the key of the command spelled out."""
    files = {**project(), "pyproject.toml": '[project]\nname = "calc"\n\n'
             '[project.optional-dependencies]\nci-extra = ["pytest"]\n',
             ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n"
                                         "      - run: pip install -e '.[ci-extra,testing]'\n"}
    repo = Repo(tmp_path / "r")
    sha = repo.commit(files, "base")
    install = detect.install_command(str(repo.path))
    assert install is not None and "ci-extra" in install
    assert (outcome_cache.key(str(repo.path), sha, None, None)
            == outcome_cache.key(str(repo.path), sha, install, "python -m pytest"))


def test_the_network_the_tests_ran_with_is_in_the_key(based: tuple[Repo, str]) -> None:
    """A base run with `network = "off"` (a test that needs the network fails) is not the
    base's outcome for a run with it on, nor the other way round."""
    repo, sha = based
    on = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest", network="on")
    off = outcome_cache.key(str(repo.path), sha, "true", "python -m pytest", network="off")
    assert on != off
    assert outcome_cache.key(str(repo.path), sha, "true", "python -m pytest") == on  # default


COUNTING = ('def pytest_sessionstart(session):\n    with open({log!r}, "a") as f:\n'
            '        f.write("session\\n")\n')


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_outcomes_recorded_offline_are_not_reused_online(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """End to end: a run with `network = "off"` keeps the base's outcomes; a second change
    against the same base, with the network on, runs the base's suite again; a third, offline
    again, takes them from the cache. (--isolation off: its conftest counts sessions on the
    host.)"""
    import json

    from helpers.gitrepo import make_change

    from gate import cli
    from gate.errors import GateError
    from gate.execution import network

    try:
        network.offline_prefix()
    except GateError as e:
        # gate: allow skip-markers -- only where no network namespace can be made, says why
        pytest.skip(f"network namespaces are not available here: {e}")
    log = tmp_path / "sessions.log"
    repo, _, _ = make_change(tmp_path / "r", project(**{
        "conftest.py": COUNTING.format(log=str(log)), "offline.toml": 'network = "off"\n'}),
        {"README": "one\n"})

    def run(head: str, *args: str) -> int:
        log.write_text("")
        cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", head,
                  "--runs", "1", "--format", "json", "--isolation", "off", *args])
        assert json.loads(capsys.readouterr().out)["verdict"] == "pass"
        return log.read_text().count("session")

    assert run("change", "--config", "offline.toml") == 2  # the head's run and the base's
    for name in ("second", "third"):
        repo.git("checkout", "-q", "main")
        repo.branch(name)
        repo.commit({"README": f"{name}\n"})
    assert run("second") == 2  # online: the offline outcomes are not the base's
    assert run("third", "--config", "offline.toml") == 1  # offline again: from the cache


def test_the_directories_tox_names_to_pytest_are_resolved_for_the_key(tmp_path: Path) -> None:
    """Detection gives pytest the directories tox names (`ci_paths`), where they are the
    base's: the key resolves the same command. Seen on markdown-it-py: the key held
    `python -m pytest` while the run had `-o testpaths=tests`, so a base run of the one
    (stopped at collection) was reused for the other."""
    files = {**project(), "tox.ini": "[testenv]\ncommands = pytest {posargs:tests/}\n"}
    repo = Repo(tmp_path / "r")
    sha = repo.commit(files, "base")
    test = detect.test_command(str(repo.path))
    assert test == "python -m pytest -o testpaths=tests"
    assert (outcome_cache.key(str(repo.path), sha, None, None)
            == outcome_cache.key(str(repo.path), sha, None, test))
