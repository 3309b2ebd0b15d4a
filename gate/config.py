"""The gate's configuration, read from the BASE ref so the head cannot weaken its own judge."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gate import git, toml
from gate.errors import GateError

CONFIG_FILES = (".gate.toml", "pyproject.toml")


@dataclasses.dataclass(frozen=True)
class Config:
    install: str | None = None
    test: str | None = None
    runs: int = 3
    timeout: float = 900.0
    test_paths: tuple[str, ...] = ()
    strict: bool = False
    max_changed_files: int | None = None
    forbidden_paths: tuple[str, ...] = (".github/workflows/", ".github/actions/")
    source: str = "defaults"


def _str(v: object) -> bool:
    return isinstance(v, str)


def _positive_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _positive_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0


def _str_list(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# key -> (validator, what is expected, dataclass field)
_KEYS: dict[str, tuple[Any, str]] = {
    "install": (_str, "a string (a shell command)"),
    "test": (_str, "a string (a shell command)"),
    "runs": (_positive_int, "a positive integer"),
    "timeout": (_positive_number, "a positive number of seconds"),
    "test-paths": (_str_list, "a list of glob strings"),
    "strict": (lambda v: isinstance(v, bool), "true or false"),
    "max-changed-files": (_positive_int, "a positive integer"),
    "forbidden-paths": (_str_list, "a list of path prefixes"),
}


def parse(table: Mapping[str, Any], source: str) -> Config:
    """Validate a `[tool.gate]` table; errors name the file, the key and the fix."""
    values: dict[str, Any] = {"source": source}
    for key, value in table.items():
        if key not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise GateError(
                f"{source}: unknown key {key!r} in the gate config; known keys: {known}")
        valid, expected = _KEYS[key]
        if not valid(value):
            raise GateError(
                f"{source}: key {key!r} must be {expected}, got {value!r}; "
                "fix it on the base branch"
            )
        field = key.replace("-", "_")
        values[field] = tuple(value) if isinstance(value, list) else value
    if "timeout" in values:
        values["timeout"] = float(values["timeout"])
    return Config(**values)


def _table(text: str, path: str, ref: str) -> Mapping[str, Any] | None:
    where = f"{path} at {ref[:12]}"
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise GateError(f"{where} is not valid TOML ({e}): fix the file on the base branch") from e
    if path == ".gate.toml":
        return data
    tool = data.get("tool", {})
    gate = tool.get("gate") if isinstance(tool, dict) else None
    if gate is None:
        return None
    if not isinstance(gate, dict):
        raise GateError(f"{where}: [tool.gate] must be a table")
    return gate


def load(repo: str, ref: str) -> Config:
    """The config at `ref`: `.gate.toml` if present, else `[tool.gate]` in pyproject.toml."""
    blobs = git.read_blobs(repo, ref, list(CONFIG_FILES))
    for path in CONFIG_FILES:
        blob = blobs[path]
        if blob is None:
            continue
        table = _table(blob.decode("utf-8", "replace"), path, ref)
        if table is not None:
            return parse(table, f"{path} at {ref[:12]}")
    return Config()
