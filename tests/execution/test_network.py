"""network = "off": the tests run in a new network namespace; the install keeps the network."""
from __future__ import annotations

import json
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.errors import GateError
from gate.execution import network, process
from gate.execution.environment import clean_env


def _namespaces_unavailable() -> str | None:
    network.offline_prefix.cache_clear()
    try:
        network.offline_prefix()
    except GateError as e:
        return str(e)
    return None


_WHY = _namespaces_unavailable()
# gate: allow skip-markers -- skips only on a machine without network namespaces, and says why
needs_namespaces = pytest.mark.skipif(
    _WHY is not None, reason=f"network namespaces are not available here: {_WHY}")


@pytest.fixture
def server() -> Iterator[int]:
    """A TCP port on the host's loopback that accepts connections."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield s.getsockname()[1]


def connect(port: int) -> str:
    return (f"{sys.executable} -c \"import socket; "
            f"socket.create_connection(('127.0.0.1', {port}), timeout=5); print('connected')\"")


@needs_namespaces
def test_a_command_under_the_prefix_has_no_network(tmp_path: Path, server: int) -> None:
    env = clean_env()
    online = process.run_shell(connect(server), cwd=str(tmp_path), env=env, timeout=30)
    assert (online.returncode, online.output) == (0, "connected\n")
    offline = process.run_argv([*network.offline_prefix(), "/bin/sh", "-c", connect(server)],
                               cwd=str(tmp_path), env=env, timeout=30)
    assert offline.returncode == 1  # its own loopback: the host's port is not there
    assert "ConnectionRefusedError: [Errno 111] Connection refused" in offline.output


@needs_namespaces
def test_the_install_has_the_network_and_the_tests_do_not(
    tmp_path: Path, server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = (f"install = {json.dumps(connect(server))}\ntest = {json.dumps(connect(server))}\n"
           'runs = 1\nnetwork = "off"\n')
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": cfg}, {"a.txt": "x\n"})
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    install, suite = report["checks"][:2]
    assert install["status"] == "passed"
    assert suite["status"] == "failed"
    assert "Connection refused" in suite["detail"]


def test_without_unshare_the_gate_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": 'network = "off"\n'}, {})
    bin_dir = tmp_path / "bin"  # git and nothing else
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    network.offline_prefix.cache_clear()
    monkeypatch.setenv("PATH", str(bin_dir))
    try:
        code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                         "--install", "true", "--test", "true", "--format", "json"])
    finally:
        network.offline_prefix.cache_clear()
    assert code == 2
    assert capsys.readouterr().err == (
        'gate: error: network = "off" needs `unshare` (util-linux) on PATH, and it is not '
        'there: install util-linux, or set network = "on"\n')
