"""A fresh workspace for the judged commands of one side of a run: its scratch and temporary
directories in the run's root, the clean environment (`environment.clean_env`) with the run's
marker, a new virtual environment first on PATH where the project has one, and, in the
isolation boundary, a HOME of the run's own with the user's caches and toolchains named for
the commands (no longer found through HOME)."""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from gate.execution import installer, isolation, workspace
from gate.execution import venv as venvs
from gate.execution.environment import (
    CiEnvironment,
    clean_env,
    installer_caches,
    own_caches,
    tool_homes,
    with_venv,
)
from gate.execution.logs import Logs
from gate.execution.run_workspace import Workspace


def workspace_for(root: str, checkout: str, timeout: float, test_prefix: tuple[str, ...],
                  boundary: isolation.Boundary, logs: Logs | None = None,
                  run_root: str | None = None, *, trusted: bool = False,
                  venv: Callable[[], str | None],
                  pin: Callable[[str, Mapping[str, str]], Mapping[str, str]],
                  plugin_dir: str, ci: CiEnvironment) -> Workspace:
    """The clean environment as the project's CI gives it to its tests (`ci`: what it sets,
    and under tox only what tox passes), with the virtual
    environment `venv()` makes (None: not a Python project) and `plugin_dir` on its path;
    `pin(checkout, env)`: variables that keep a toolchain to the checkout. Its temporary
    directory is the run's own, so what commands leave there goes with the run (whose root
    is `run_root`, by default `root`). Only the install of `trusted` code (the base's) may
    warm the installers' caches."""
    scratch, tmp = os.path.join(root, "scratch"), os.path.join(root, "tmp")
    os.mkdir(scratch)
    os.mkdir(tmp)
    env = {**ci.applied(clean_env()), "TMPDIR": tmp,
           workspace.run_marker(run_root or root): "1"}  # killed when the run ends
    env.update(pin(checkout, env))
    fresh = venv()
    if fresh is not None:
        venvs.add_path(fresh, plugin_dir, "_gate_pytest_plugins")
        env = with_venv(installer.uv_settings(env), fresh)
    if boundary.bwrap is None:
        return Workspace(checkout, scratch, env, timeout, test_prefix, logs, boundary)
    # In the boundary (issue 22): a HOME of the run's own, and the user's caches and
    # toolchains named for the commands, since they are no longer found through HOME.
    home = os.path.join(root, "home")
    os.mkdir(home)
    caches, tools = installer_caches(env), tool_homes(env)
    if not trusted and not boundary.overlays:  # no overlay to show the user's: empty ones
        caches = own_caches(caches, home)
        for path in caches.values():
            os.makedirs(path)
    xdg = {k: os.path.join(home, d) for k, d in (("XDG_CACHE_HOME", ".cache"), (
        "XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"), (
        "XDG_STATE_HOME", ".local/state")) if k in env}  # the user's would be read-only
    env = {**env, **xdg, **{k: v for k, v in {**caches, **tools}.items() if k.isidentifier()},
           "HOME": home, "UV_LINK_MODE": "copy"}  # no file shared with the cache
    return Workspace(checkout, scratch, env, timeout, test_prefix, logs, boundary, home,
                     tuple(caches.values()), tuple(tools.values()), warms_caches=trusted)
