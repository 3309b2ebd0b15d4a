"""check-config: a whole new tox environment (or any new section of a config file it reads) is
one finding that names its keys, not one finding per key."""
from __future__ import annotations

from pathlib import Path

from helpers.configcheck import found

TOX = "[tox]\nenv_list = py3{9,13}\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n"


def test_a_new_tox_environment_is_one_finding(tmp_path: Path) -> None:
    head = TOX + ("\n[testenv:docs]\nbase_python = python3.13\ndeps = sphinx\n"
                  "commands = sphinx-build -W docs docs/_build\n")
    assert found(tmp_path, {"tox.ini": TOX}, {"tox.ini": head}) == [
        (8, "tox-config", "[testenv:docs] added (base_python, commands, deps); this setting "
         "decides what the checks catch")]


def test_a_key_changed_in_an_existing_environment_is_still_its_own(tmp_path: Path) -> None:
    head = TOX.replace("commands = pytest {posargs}", "commands = pytest -x {posargs}")
    assert [r for _, r, _ in found(tmp_path, {"tox.ini": TOX}, {"tox.ini": head})] == [
        "tox-config"]
