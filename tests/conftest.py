from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

# tests/corpus/ holds the files of test repositories (test_corpus.py builds them): data, not tests
collect_ignore = ["corpus"]

# A shell starts a background job (`pytest &`, `nohup`) with SIGINT ignored, and the gates the
# tests start inherit that: the tests that press Ctrl-C on a gate would wait for nothing. A
# handled signal is the default again in a new program, so the gates get the usual Ctrl-C.
signal.signal(signal.SIGINT, signal.default_int_handler)

_REAL_HOME = os.environ.get("HOME", "")
_PROJECT = Path(__file__).resolve().parent.parent


def _entries(home: str) -> set[str]:
    try:
        return set(os.listdir(home)) if home else set()
    except OSError:
        return set()


@pytest.fixture(scope="session", autouse=True)
def home_of_the_session(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The whole test process gets a HOME of its own before any fixture runs (module-scoped
    ones run before `isolated_git`: a judged command they start under `--isolation off`
    wrote `~/.gate-attack` into the real home); and the session fails if the real home
    gained an entry."""
    before = _entries(_REAL_HOME)
    home = tmp_path_factory.mktemp("session-home")
    (home / ".gitconfig").write_text("[user]\n\tname = Test\n\temail = test@example.com\n"
                                     "[init]\n\tdefaultBranch = main\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        yield
    added = _entries(_REAL_HOME) - before
    assert not added, f"the tests wrote into the real home {_REAL_HOME}: {sorted(added)}"


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git in tests sees no user or system config, and writes nothing to the real home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # the gate's base outcomes
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for var in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
        monkeypatch.delenv(var, raising=False)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Test\n\temail = test@example.com\n"
        "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
    )


@pytest.fixture(autouse=True)
def project_untouched() -> object:
    """Fail loudly if a test changed this project's own git state."""
    head = (_PROJECT / ".git" / "HEAD").read_bytes() if (_PROJECT / ".git").is_dir() else b""
    yield
    after = (_PROJECT / ".git" / "HEAD").read_bytes() if (_PROJECT / ".git").is_dir() else b""
    assert head == after, "a test changed the project's own HEAD"


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pytest and the build tools as wheels, downloaded once per session, so that the fresh
    environments of end-to-end tests install from a local directory."""
    import subprocess
    import sys

    target = tmp_path_factory.mktemp("wheelhouse")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
         "-d", str(target), "pytest", "setuptools", "wheel"],
        check=True,
    )
    return target


@pytest.fixture
def offline_pip(wheelhouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip in the gate's fresh environments installs from the wheelhouse, not the network."""
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheelhouse))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_DISABLE_PIP_VERSION_CHECK", "1")


@pytest.fixture
def cargo_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """cargo offline, with the toolchain of this machine (tests move HOME)."""
    cargo = shutil.which("cargo")
    if cargo is None:
        # gate: allow skip-markers -- only where cargo is missing, and says so; .ci/run has it
        pytest.skip("cargo is not installed: the Rust tests need it")
    rustup_home = Path(cargo).resolve().parents[2] / ".rustup"  # ~/.cargo/bin/cargo
    if "RUSTUP_HOME" not in os.environ and rustup_home.is_dir():
        monkeypatch.setenv("RUSTUP_HOME", str(rustup_home))
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    monkeypatch.setenv("CARGO_NET_OFFLINE", "true")
    monkeypatch.setenv("RUST_BACKTRACE", "0")
