"""uv in place of pip, and pip's index settings carried over to uv."""
from __future__ import annotations

import pytest

from gate.execution import installer


def test_pip_settings_are_given_to_uv_and_uvs_own_win() -> None:
    env = installer.uv_settings({"PIP_INDEX_URL": "https://mirror/simple", "PIP_NO_INDEX": "1",
                                 "PIP_FIND_LINKS": "/wheels", "UV_FIND_LINKS": "/mine",
                                 "PATH": "/bin"})
    assert env == {"PIP_INDEX_URL": "https://mirror/simple", "PIP_NO_INDEX": "1",
                   "PIP_FIND_LINKS": "/wheels", "UV_FIND_LINKS": "/mine", "PATH": "/bin",
                   "UV_INDEX_URL": "https://mirror/simple", "UV_NO_INDEX": "true"}


def test_gate_no_uv_turns_uv_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATE_NO_UV", "1")
    assert installer.find_uv() is None
    assert installer.pip_install() == "python -m pip install --disable-pip-version-check"


def test_uv_is_found_beside_the_gates_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GATE_NO_UV", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    uv = installer.find_uv()
    assert uv is not None and uv.endswith("/uv")
    assert installer.pip_install() == f"{uv} pip install"
