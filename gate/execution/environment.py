"""The environment that commands from the head run in: no secrets, no git hook variables."""
from __future__ import annotations

import dataclasses
import fnmatch
import functools
import os
import re
from collections.abc import Mapping

# Variables git exports inside a hook; they would point a command at the user's repository.
GIT_HOOK_VARIABLES = frozenset(
    {
        "GIT_DIR",
        "GIT_INDEX_FILE",
        "GIT_WORK_TREE",
        "GIT_PREFIX",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_EXEC_PATH",
        "GIT_QUARANTINE_PATH",
    }
)
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL", re.IGNORECASE)
_SECRET_PREFIXES = ("ACTIONS_", "GITHUB_TOKEN", "GH_TOKEN")
# The runner's step files (written there, they reach the job's later steps) and its temporary
# directory (the gate's own installation and report live there in the Action).
RUNNER_VARIABLES = frozenset({"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH",
                              "GITHUB_STEP_SUMMARY", "GITHUB_STATE", "RUNNER_TEMP"})


def global_git_configs(environ: Mapping[str, str]) -> list[str]:
    """The files git reads as its global config: the XDG one, then ~/.gitconfig."""
    home = environ.get("HOME") or os.path.expanduser("~")
    xdg = environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]


@functools.cache
def _pinned(configs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    existing = [p for p in configs if os.path.isfile(p)]
    if len(existing) == len(configs):
        return ()
    return (("GIT_CONFIG_GLOBAL", existing[0] if existing else os.devnull),)


def gate_git_env() -> dict[str, str]:
    """The environment of the gate's own git commands: `no_git_env()`, with the global config
    pinned to the files that existed when the gate first asked (before any judged command ran).
    A global config file the judged code creates later (a smudge filter, an fsmonitor hook)
    is not read by the gate's later checkouts; those that existed are read-only to it (see
    `isolation`)."""
    return {**no_git_env(), **dict(_pinned(tuple(global_git_configs(os.environ))))}


def no_git_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment without the variables git sets for hooks."""
    source = os.environ if environ is None else environ
    return {
        k: v
        for k, v in source.items()
        if k not in GIT_HOOK_VARIABLES and not k.startswith("GIT_CONFIG_")
    }


def _homes(environ: Mapping[str, str]) -> tuple[str, str]:
    home = environ.get("HOME") or os.path.expanduser("~")
    return home, environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")


def installer_caches(environ: Mapping[str, str]) -> dict[str, str]:
    """The installers' caches of the gate's user, by the variable that names each (uv, pip,
    npm, go's build and module caches, cargo's registry), where they exist: given to the
    judged commands by name, since their HOME is the run's own. Only the base's install
    writes them (trusted code); the head's and every later command see them through an
    overlay (`Workspace.warms_caches`, `Workspace.sealed`)."""
    home, cache = _homes(environ)
    gopath = environ.get("GOPATH") or os.path.join(home, "go")
    cargo = environ.get("CARGO_HOME") or os.path.join(home, ".cargo")
    wanted = {"UV_CACHE_DIR": os.path.join(cache, "uv"),
              "PIP_CACHE_DIR": os.path.join(cache, "pip"),
              "npm_config_cache": os.path.join(home, ".npm"),
              "GOCACHE": os.path.join(cache, "go-build"),
              "GOMODCACHE": os.path.join(gopath, "pkg", "mod"),
              "cargo registry": os.path.join(cargo, "registry")}  # no variable
    found = {name: environ.get(name) or default for name, default in wanted.items()}
    return {k: v for k, v in found.items() if os.path.isdir(v)}


def own_caches(caches: Mapping[str, str], home: str) -> dict[str, str]:
    """The installers' caches for an install that may not warm the user's (the head's) where
    no overlay can show them: empty ones of the run's own, under its HOME (written and
    dropped with the run), by the variables that name them; cargo's registry, which no
    variable names, stays the user's, read-only."""
    return {name: os.path.join(home, ".cache", "gate-own", name.lower())
            for name in caches if name.isidentifier()}


def tool_homes(environ: Mapping[str, str]) -> dict[str, str]:
    """The toolchains' homes of the gate's user (CARGO_HOME, RUSTUP_HOME, GOPATH), where they
    exist: named for the judged commands (their HOME is the run's own), and seen through an
    overlay, so that no command can replace a toolchain's binaries for the next."""
    home, _ = _homes(environ)
    wanted = {"CARGO_HOME": os.path.join(home, ".cargo"),
              "RUSTUP_HOME": os.path.join(home, ".rustup"),
              "GOPATH": os.path.join(home, "go")}
    found = {name: environ.get(name) or default for name, default in wanted.items()}
    return {k: v for k, v in found.items() if os.path.isdir(v)}


# variables that hold a list: the gate adds to them, never replaces what is there
_LISTS = {"PYTHONPATH": os.pathsep, "PYTEST_PLUGINS": ",", "NODE_OPTIONS": " "}
# options, in order (a later one wins): the gate's come after the ones already there (the
# project's CI's `PYTEST_ADDOPTS: -n auto`), so its report and configuration pins hold
_OPTIONS = frozenset({"PYTEST_ADDOPTS"})


def extended(env: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """`env` with `extra` set; where both have a list variable (PYTHONPATH, PYTEST_PLUGINS,
    NODE_OPTIONS), the extra items first, then the ones already there, each once; where both
    have options (PYTEST_ADDOPTS), the ones there first, then the extra ones."""
    out = dict(env)
    for name, value in extra.items():
        if name in _OPTIONS and out.get(name):
            out[name] = f"{out[name]} {value}"
            continue
        sep = _LISTS.get(name)
        if sep is None or not out.get(name):
            out[name] = value
            continue
        items = [i for i in (*value.split(sep), *out[name].split(sep)) if i]
        out[name] = sep.join(dict.fromkeys(items))
    return out


def is_secret(name: str) -> bool:
    return name.startswith(_SECRET_PREFIXES) or bool(_SECRET_NAME.search(name))


# Set as a CI runner sets them (GitHub's runners set CI=true): nothing else is added that
# changes how a program behaves (no NO_COLOR, TERM or PYTHONDONTWRITEBYTECODE): a colour
# library's tests expect the colour its users get on CI. The gate reads plain output by
# stripping colour codes (`reading.read`), never by asking the tests for it.
CI_SETTINGS = {"CI": "true"}
# What the caller's shell may hold that a CI runner does not: a colour switch (the user's
# NO_COLOR would fail a colour library's tests that pass on CI), an extra import path or
# pytest options, the gate's own cache. What the project's CI sets for its tests is read from
# its workflow (`outcomes/ci_env.py`).
NOT_ON_A_RUNNER = frozenset({"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
                             "NODE_DISABLE_COLORS", "PY_COLORS", "PYTHONPATH",
                             "PYTEST_ADDOPTS", "GATE_CACHE_DIR"})


def clean_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for install and test commands: the caller's, as a CI runner has it
    (`CI=true`), without secrets, git's hook variables or the runner's step files."""
    env = {k: v for k, v in no_git_env(environ).items()
           if not is_secret(k) and k not in RUNNER_VARIABLES and k not in NOT_ON_A_RUNNER}
    env.update(CI_SETTINGS)
    return env


def with_venv(env: Mapping[str, str], venv_dir: str) -> dict[str, str]:
    """Put a virtual environment first on PATH, as `activate` would."""
    bindir = os.path.join(venv_dir, "Scripts" if os.name == "nt" else "bin")
    out = dict(env)
    out.pop("PYTHONHOME", None)
    out["VIRTUAL_ENV"] = venv_dir
    others = [d for d in env.get("PATH", os.defpath).split(os.pathsep) if not _is_venv_bin(d)]
    out["PATH"] = os.pathsep.join([bindir, *others])
    return out


def _is_venv_bin(directory: str) -> bool:
    """A virtual environment's bin/ (the caller's own, say): its packages must not leak in."""
    return bool(directory) and os.path.isfile(os.path.join(directory, os.pardir, "pyvenv.cfg"))


# The run's own: the gate sets them (its places, its virtual environment, its preloads and
# report paths); a workflow's value would undo the boundary or the reading of outcomes.
_HELD = frozenset({"PATH", "HOME", "TMPDIR", "TMP", "TEMP", "VIRTUAL_ENV", "PYTHONHOME",
                   "LD_PRELOAD", "LD_LIBRARY_PATH", "PYTHONSTARTUP", "GOFLAGS", "GOPATH",
                   "CARGO_HOME", "RUSTUP_HOME", "UV_CACHE_DIR", "UV_LINK_MODE",
                   "PIP_CACHE_DIR", "NEXTEST_STATUS_LEVEL"})
_HELD_PREFIXES = ("GATE_", "GITHUB_", "RUNNER_", "XDG_", "FAKETIME", "DONT_FAKE")


def held_by_the_run(name: str) -> bool:
    """A name the gate sets for the run, or a secret: no workflow's value for it counts."""
    return name in _HELD or name.startswith(_HELD_PREFIXES) or is_secret(name)


@dataclasses.dataclass(frozen=True)
class CiEnvironment:
    """What the project's CI gives its tests beyond a runner's environment: the variables it
    sets (`values`) and, where its tests run through tox, the only names of the runner's
    environment that reach them (`passes`: tox's patterns, case-insensitive, `PIP_*`; None:
    every name, as a step's own command or nox sees them)."""
    values: Mapping[str, str] = dataclasses.field(default_factory=dict)
    passes: tuple[str, ...] | None = None

    def passing(self, env: Mapping[str, str]) -> dict[str, str]:
        """The names of `env` that reach the tests: those that pass, and the run's own
        (`held_by_the_run`)."""
        if self.passes is None:
            return dict(env)
        patterns = [re.compile(fnmatch.translate(p), re.IGNORECASE) for p in self.passes]
        return {k: v for k, v in env.items()
                if held_by_the_run(k) or any(p.match(k) for p in patterns)}

    def applied(self, env: Mapping[str, str]) -> dict[str, str]:
        """`env` (the clean one) as the CI's tests see it: what passes, then the values."""
        return {**self.passing(env), **self.values}
