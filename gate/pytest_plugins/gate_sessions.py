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

pytest_plugins = ("gate_fingerprint",)  # the framework's fingerprint, taken as early as this
_HERE = os.path.dirname(os.path.abspath(__file__))  # the gate's own plugins
# id(plugin manager) -> identity -> what is known of the plugin: per session, so that a
# session a test starts in-process (pytester, pytest.main) does not add its plugins
_SEEN: dict[int, dict[str, dict[str, Any]]] = {}
_LIST: dict[int, str] = {}  # id(config) -> where this session's plugin list goes
_RUNNING: list[str] = []  # where the command's own session names the test it is running


def _identity(plugin: object) -> tuple[str, str | None] | None:
    """A plugin's name that is the same in every checkout (its module, or its class), and its
    file; None for the gate's own. pytest's own are listed too (they are the same at base and
    head): a name says nothing, a plugin can take any (`_pytest.x`, `pkg.conftest`)."""
    if isinstance(plugin, types.ModuleType):
        name, path = plugin.__name__, getattr(plugin, "__file__", None)
    else:
        cls = type(plugin)
        module = cls.__module__
        name = f"{module}.{cls.__qualname__}"
        path = getattr(sys.modules.get(module), "__file__", None)
    if path is not None and os.path.dirname(os.path.abspath(path)) == _HERE:
        return None
    return name, path


def _conftest(entry: dict[str, Any], root: str) -> bool:
    """A conftest.py of the project (a test file, judged as such), not one a package ships."""
    path = entry["file"]
    return (isinstance(path, str) and os.path.basename(path) == "conftest.py"
            and os.path.abspath(path).startswith(root.rstrip(os.sep) + os.sep))


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
    root = os.path.abspath(str(getattr(config, "rootpath", None) or config.rootdir))
    listed = [e for e in seen.values() if not _conftest(e, root)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(sorted(listed, key=lambda p: str(p["name"])), f)


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
        _RUNNING[:] = [path + ".running"]
        _write(config)  # already: a session cut short (os._exit) still leaves its list
        return


@pytest.hookimpl(trylast=True)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_unconfigure(config: Any) -> None:
    _write(config)  # again: with the conftests' pytest_plugins, loaded while collecting
    _LIST.pop(id(config), None)


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    """The test being run, for the message of a run that times out (the JUnit report is only
    written at the end, which a run killed at its time limit never reaches)."""
    for path in _RUNNING:
        with open(path, "w", encoding="utf-8") as f:
            f.write(nodeid)
