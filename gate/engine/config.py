"""The gate's configuration, read from the BASE ref so the head cannot weaken its own judge."""
from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Mapping, Sequence
from typing import Any

from gate import toml
from gate.errors import GateError
from gate.vcs import git

CONFIG_FILES = (".gate.toml", "pyproject.toml")
PINNED_MODES = ("off", "report", "review")
USER_CHECK_KINDS = ("lint", "typecheck", "build", "other")  # what `gate run --quick` runs by


@dataclasses.dataclass(frozen=True)
class Config:
    install: str | None = None
    test: str | None = None
    runs: int = 3
    parallel: bool = True  # runs side by side, each in its own checkout and TMPDIR
    timeout: float = 900.0
    test_paths: tuple[str, ...] = ()
    strict: bool = False
    max_changed_files: int | None = None
    forbidden_paths: tuple[str, ...] = (".github/workflows/", ".github/actions/")
    keep: tuple[str, ...] = ()  # globs of added files that are not leftovers
    checks: tuple[UserCheck, ...] = ()
    network: str = "on"
    cache: bool = True  # the base outcomes are kept under $XDG_CACHE_HOME/gate
    isolation: str = "auto"
    tmp_size_mb: int = 4096  # the install's temporary directory (a tmpfs), under isolation
    pinned: str = "report"  # off, report (findings shown, verdict unchanged) or review
    pinned_mutants: int = 20  # at most this many mutants (0: none)
    pinned_time: float = 1.0  # the mutants' extra wall time, in suite runs
    agent_config_paths: tuple[str, ...] = ()  # globs `agent-config` reads beside its own
    max_attempts: int | None = None  # `gate submit`'s cap per change; None: the default (3)
    varied_run: bool = True  # the suite's last run under other conditions (the clock ahead...)
    source: str = "defaults"


@dataclasses.dataclass(frozen=True)
class UserCheck:
    """One `[[tool.gate.checks]]`: a shell command run in the head checkout after install."""

    name: str
    run: str
    required: bool = True
    timeout: float | None = None  # None: the gate's `timeout`
    kind: str | None = None  # lint, typecheck, build or other; None: read from `run`


def _str(v: object) -> bool:
    return isinstance(v, str)


def _positive_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _positive_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _str_list(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# key -> (validator, what is expected, dataclass field)
_KEYS: dict[str, tuple[Any, str]] = {
    "install": (_str, "a string (a shell command)"),
    "test": (_str, "a string (a shell command)"),
    "runs": (_positive_int, "a positive integer"),
    "parallel": (lambda v: isinstance(v, bool), "true or false"),
    "timeout": (_positive_number, "a positive number of seconds"),
    "test-paths": (_str_list, "a list of glob strings"),
    "strict": (lambda v: isinstance(v, bool), "true or false"),
    "max-changed-files": (_positive_int, "a positive integer"),
    "forbidden-paths": (_str_list, "a list of path prefixes"),
    "keep": (_str_list, "a list of globs (files a change may add that are not leftovers)"),
    "checks": (lambda v: _user_checks(v) is not None,
               "a list of tables ([[tool.gate.checks]]) with `name` and `run` (strings), "
               "optional `required` (true or false), `timeout` (seconds) and `kind` "
               "(\"lint\", \"typecheck\", \"build\" or \"other\"); names unique"),
    "network": (lambda v: v in ("on", "off"), '"on" or "off"'),
    "cache": (lambda v: isinstance(v, bool), "true or false"),
    "isolation": (lambda v: v in ("auto", "required", "off"), '"auto", "required" or "off"'),
    "tmp-size-mb": (_positive_int, "a positive integer (MiB)"),
    "pinned": (lambda v: v in PINNED_MODES, '"off", "report" or "review"'),
    "pinned-mutants": (_count, "a whole number of mutants, 0 or more (0: none)"),
    "pinned-time": (_positive_number, "a positive number of suite runs"),
    "agent-config-paths": (_str_list, "a list of globs (more files that steer the agents)"),
    "max-attempts": (_positive_int, "a positive integer (gate submit's attempts per change)"),
    "varied-run": (lambda v: isinstance(v, bool), "true or false"),
}
_CHECK_KEYS: dict[str, Any] = {
    "name": lambda v: isinstance(v, str) and bool(v.strip()),
    "run": lambda v: isinstance(v, str) and bool(v.strip()),
    "required": lambda v: isinstance(v, bool),
    "timeout": _positive_number,
    "kind": lambda v: v in USER_CHECK_KINDS,
}


def _user_checks(value: object) -> tuple[UserCheck, ...] | None:
    """The user checks of a `checks` value; None if it is malformed."""
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        if not isinstance(item, dict) or not {"name", "run"} <= item.keys():
            return None
        if any(k not in _CHECK_KEYS or not _CHECK_KEYS[k](v) for k, v in item.items()):
            return None
        timeout = item.get("timeout")
        out.append(UserCheck(item["name"], item["run"], item.get("required", True),
                             float(timeout) if timeout is not None else None,
                             item.get("kind")))
    if len({c.name for c in out}) != len(out):
        return None
    return tuple(out)


def _nearest(key: str) -> str:
    """'did you mean `runs`? ' for a key close to a known one (a typo), else ''."""
    close = difflib.get_close_matches(key.replace("_", "-"), _KEYS, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`? " if close else ""


def parse(table: Mapping[str, Any], source: str) -> Config:
    """Validate a `[tool.gate]` table; errors name the file, the key and the fix."""
    values: dict[str, Any] = {"source": source}
    for key, value in table.items():
        if key not in _KEYS:
            raise GateError(f"{source}: unknown key {key!r} in the gate config; "
                            f"{_nearest(key)}known keys: {', '.join(sorted(_KEYS))}")
        valid, expected = _KEYS[key]
        if not valid(value):
            raise GateError(
                f"{source}: key {key!r} must be {expected}, got {value!r}; "
                "fix it on the base branch"
            )
        field = key.replace("-", "_")
        values[field] = tuple(value) if isinstance(value, list) else value
    for number in ("timeout", "pinned_time"):
        if number in values:
            values[number] = float(values[number])
    if "checks" in values:
        values["checks"] = _user_checks(list(values["checks"]))
    return Config(**values)


def _table(text: str, path: str, where: str) -> Mapping[str, Any] | None:
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise GateError(f"{where} is not valid TOML ({e}): fix the file on the base branch") from e
    if os.path.basename(path) != "pyproject.toml":
        return data
    tool = data.get("tool", {})
    gate = tool.get("gate") if isinstance(tool, dict) else None
    if gate is None:
        return None
    if not isinstance(gate, dict):
        raise GateError(f"{where}: `gate` under [tool] must be a table ([tool.gate] with keys "
                        f"such as `runs = 3`), got {gate!r}; fix it on the base branch")
    return gate


def found_table(blobs: Mapping[str, bytes | None], at: str,
                paths: Sequence[str] = CONFIG_FILES) -> tuple[str, Mapping[str, Any]] | None:
    """The first of `paths` in `blobs` that holds a gate config, with its table; `at` names
    where the files were read (for errors)."""
    for path in paths:
        blob = blobs.get(path)
        if blob is None:
            continue
        table = _table(blob.decode("utf-8", "replace"), path, f"{path} at {at}")
        if table is not None:
            return path, table
    return None


def load(repo: str, ref: str, path: str | None = None) -> Config:
    """The config at `ref`: `.gate.toml` if present, else `[tool.gate]` in pyproject.toml;
    or the file `path` (with the keys of .gate.toml) when given."""
    if path:
        blob = git.show(repo, ref, path)
        if blob is None:
            raise GateError(f"the config file {path} is not in the base commit {ref[:12]}: "
                            "commit it on the base branch, or drop the option")
        table = _table(blob.decode("utf-8", "replace"), path, f"{path} at {ref[:12]}")
        return parse(table or {}, f"{path} at {ref[:12]}")
    found = found_table(git.read_blobs(repo, ref, list(CONFIG_FILES)), ref[:12])
    return parse(found[1], f"{found[0]} at {ref[:12]}") if found else Config()
