"""The gate's pytest plugin for every pytest run it makes: each pytest session writes its
JUnit report to a file of its own (`<report>.<n>`), so that a command running pytest more than
once (`pytest unit && pytest integration`) keeps every session's outcomes, not the last one's;
and beside it (`<report>.<n>.plugins`) the plugins the session loaded, which the gate compares
with the base's (`harness`: a plugin only the head loads changes how the tests run).

Loaded through PYTEST_PLUGINS=gate_sessions with this directory on the import path (PYTHONPATH,
and a .pth file in the run's fresh environment); inert unless GATE_JUNIT names the report the
gate asked for with --junitxml. Standard library only: the gate is not installed where pytest
runs."""
from __future__ import annotations

import json
import os
import sys
import types
from typing import Any

import pytest

_OWN = ("gate_sessions", "gate_shard_plugin")
# id(plugin manager) -> identity -> what is known of the plugin: per session, so that a
# session a test starts in-process (pytester, pytest.main) does not add its plugins
_SEEN: dict[int, dict[str, dict[str, Any]]] = {}
_LIST: dict[int, str] = {}  # id(config) -> where this session's plugin list goes


def _identity(plugin: object) -> tuple[str, str | None] | None:
    """A plugin's name that is the same in every checkout (its module, or its class), and its
    file; None for pytest's own plugins, the gate's, and conftest files (which are test files,
    judged as such)."""
    if isinstance(plugin, types.ModuleType):
        name, path = plugin.__name__, getattr(plugin, "__file__", None)
    else:
        cls = type(plugin)
        module = cls.__module__
        name = f"{module}.{cls.__qualname__}"
        path = getattr(sys.modules.get(module), "__file__", None)
    top = name.split(".")[0]
    if top in ("_pytest", "pytest", "pluggy", *_OWN) or name.split(".")[-1] == "conftest" or (
            path is not None and os.path.basename(path) == "conftest.py"):
        return None
    return name, path


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_plugin_registered(plugin: object, manager: Any) -> None:
    found = _identity(plugin)
    if found is not None:
        _SEEN.setdefault(id(manager), {}).setdefault(
            found[0], {"name": found[0], "file": found[1], "dist": None})


def _write(config: Any) -> None:
    path = _LIST.get(id(config))
    if path is None:
        return
    seen = _SEEN.setdefault(id(config.pluginmanager), {})
    for plugin, dist in config.pluginmanager.list_plugin_distinfo():
        found = _identity(plugin)
        if found is not None and found[0] in seen:
            seen[found[0]]["dist"] = getattr(dist, "project_name", None) or dist.metadata["name"]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(sorted(seen.values(), key=lambda p: str(p["name"])), f)


@pytest.hookimpl(tryfirst=True)  # before pytest's junitxml plugin opens the report
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_configure(config: Any) -> None:
    report = os.environ.get("GATE_JUNIT")
    if not report or hasattr(config, "workerinput"):  # xdist workers write no report
        return
    if getattr(config.option, "xmlpath", None) != report:
        return
    if _LIST:  # a session a test started in-process (pytest.main): not the command's own
        config.option.xmlpath = None
        return
    n = 0
    while True:
        path = f"{report}.{n}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            n += 1
            continue
        config.option.xmlpath = path
        _LIST[id(config)] = path + ".plugins"
        _write(config)  # already: a session cut short (os._exit) still leaves its list
        return


@pytest.hookimpl(trylast=True)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_unconfigure(config: Any) -> None:
    _write(config)  # again: with the conftests' pytest_plugins, loaded while collecting
    _LIST.pop(id(config), None)
