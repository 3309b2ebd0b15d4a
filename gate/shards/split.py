"""How one shard's share of the tests is run, per runner, by what the runner supports:

- pytest: pytest's own collection, split by test file in the gate's plugin (`pytest/`),
  balanced by recorded seconds, else by number of tests;
- Jest and Vitest: their own `--shard=I/N`;
- cargo nextest: its own `--partition count:I/N`;
- go test: packages (directories with `_test.go` files), balanced;
- node --test and Mocha: the files their default discovery finds, balanced;
- anything else (cargo test, a script that chains commands): the whole suite in shard 1 and
  nothing in the others. Slower, never wrong: a test runs in exactly one shard.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import json
import os
import posixpath
from collections.abc import Mapping, Sequence

from gate.execution import judged_files
from gate.execution.environment import extended
from gate.execution.run_workspace import Workspace
from gate.outcomes import scoped_command
from gate.outcomes.pytest_command import is_pytest
from gate.outcomes.runners import pytest as pytest_runner
from gate.shards import balance
from gate.shards.spec import Shard

PLUGIN = "gate_shard_plugin"  # in gate/pytest_plugins

# node --test's default discovery (Node 21+), as globs on a path relative to the checkout
_NODE_PATTERNS = tuple(f"{stem}.{ext}" for stem in ("*.test", "*-test", "*_test", "test-*", "test")
                       for ext in ("js", "cjs", "mjs"))
# options that leave Mocha's choice of files alone (any other may name or filter files)
_MOCHA_HARMLESS = frozenset({"--recursive", "--exit", "--bail", "-b", "--check-leaks",
                             "--forbid-only", "--forbid-pending", "--full-trace",
                             "--no-colors", "--colors", "-c", "-C", "--inline-diffs",
                             "--allow-uncaught", "--async-only", "-A", "--sort", "-S"})
_MOCHA_CONFIGS = (".mocharc.js", ".mocharc.cjs", ".mocharc.yaml", ".mocharc.yml",
                  ".mocharc.jsonc", ".mocharc.json")


@dataclasses.dataclass(frozen=True)
class Split:
    how: str  # said in the suite's summary
    command: str | None  # None: no test falls to this shard
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    units: Mapping[str, int] | None = None  # unit -> shard (1-based), where the gate split
    split_file: str | None = None  # where the runner writes the whole split (pytest)

    def workspace(self, ws: Workspace) -> Workspace:
        return dataclasses.replace(ws, env=extended(ws.env, self.env)) if self.env else ws

    def whole(self) -> Mapping[str, int] | None:
        """The whole split, unit -> shard: the gate's, or what the runner wrote."""
        if self.units is not None or self.split_file is None:
            return self.units
        try:  # written by the judged process: anything that does not read is no split
            data = json.loads(judged_files.read(self.split_file) or b"")
            return {str(k): int(v) for k, v in data.items()}
        except (OSError, ValueError, TypeError, AttributeError):
            return None


def _pytest(command: str, shard: Shard, seconds: Mapping[str, float], scratch: str,
            tag: str) -> Split:
    durations = os.path.join(scratch, f"shard-durations-{tag}.json")
    judged_files.write(durations, json.dumps(dict(seconds)))  # the install ran before
    out = os.path.join(scratch, f"shard-split-{tag}.json")
    env = {"GATE_SHARD": str(shard), "GATE_SHARD_DURATIONS": durations,
           "GATE_SHARD_SPLIT": out, "PYTHONPATH": pytest_runner.PLUGIN_DIR,
           "PYTEST_PLUGINS": PLUGIN}
    return Split(f"pytest's collection, test files balanced ({_by(seconds)})", command, env,
                 split_file=out)


def _by(seconds: Mapping[str, float]) -> str:
    return "by recorded seconds" if seconds else "by number of tests"


def _balanced(units: Mapping[str, int], seconds: Mapping[str, float],
              shard: Shard) -> dict[str, int]:
    shares = balance.assign(balance.weigh(units, seconds), shard.total)
    return {u: s + 1 for u, s in sorted(shares.items())}


def _go_packages(files: Sequence[str]) -> dict[str, list[str]]:
    """Test files by package directory, as `./...` finds them (not under testdata, vendor or
    a directory starting with `.` or `_`)."""
    out: dict[str, list[str]] = {}
    for path in files:
        if not path.endswith("_test.go"):
            continue
        parts = path.split("/")[:-1]
        if any(p in ("testdata", "vendor") or p.startswith((".", "_")) for p in parts):
            continue
        out.setdefault(posixpath.dirname(path) or ".", []).append(path)
    return out


def _node_files(files: Sequence[str]) -> list[str]:
    def found(path: str) -> bool:
        parts = path.split("/")
        if "node_modules" in parts or not path.endswith((".js", ".cjs", ".mjs")):
            return False
        return "test" in parts[:-1] or any(fnmatch.fnmatch(parts[-1], p)
                                           for p in _NODE_PATTERNS)
    return [f for f in files if found(f)]


def _mocha_files(command: str, files: Sequence[str], checkout: str) -> list[str] | None:
    """Mocha's default spec, ./test/*.{js,cjs,mjs} (and below with --recursive); None where a
    config or an option (--spec, --extension, --ignore...) may say otherwise."""
    words = scoped_command.runner_command(command, checkout).split()
    options = [w.split("=", 1)[0] for w in words[1:] if w.startswith("-")]
    if any(o not in _MOCHA_HARMLESS for o in options):
        return None
    if any(os.path.exists(os.path.join(checkout, c)) for c in _MOCHA_CONFIGS):
        return None
    try:  # a file only: the install may have left a FIFO there
        if "mocha" in json.loads(judged_files.text(os.path.join(checkout, "package.json"))
                                 or "{}"):
            return None
    except (ValueError, TypeError):
        pass
    deep = "--recursive" in options
    return [f for f in files if f.endswith((".js", ".cjs", ".mjs"))
            and (posixpath.dirname(f) == "test" or (deep and f.startswith("test/")))]


def _by_files(command: str, checkout: str, units: Mapping[str, list[str]],
              seconds: Mapping[str, float], shard: Shard, what: str) -> Split | None:
    if not units:
        return None
    whole = _balanced({u: len(fs) for u, fs in units.items()}, seconds, shard)
    mine = [f for u, fs in units.items() if whole[u] == shard.index for f in fs]
    how = f"{what} balanced ({_by(seconds)})"
    if not mine:
        return Split(how, None, units=whole)
    narrowed = scoped_command.narrowed(command, sorted(mine), checkout)
    return Split(how, narrowed, units=whole) if narrowed else None


def _whole(command: str, shard: Shard) -> Split:
    how = "the whole suite in shard 1: the gate cannot split this command"
    return Split(how, command if shard.first else None)


def split(command: str, checkout: str, files: Sequence[str], shard: Shard,
          seconds: Mapping[str, float], scratch: str, tag: str) -> Split:
    """This shard's share of `command`'s tests in `checkout` (whose tracked `files` are
    given)."""
    if is_pytest(command):
        return _pytest(command, shard, seconds, scratch, tag)
    runner = scoped_command.js_runner(command, checkout)
    if runner is not None and runner[0] in ("jest", "vitest"):
        # a shard that no test file falls to finds none: not a failure (Jest exits 1 then)
        return Split(f"{runner[0]} --shard",
                     f"{runner[1]} --shard={shard} --passWithNoTests")
    words = command.split()
    if words[:3] == ["cargo", "nextest", "run"] and not set(command) & set(";&|<>`$()"):
        return Split("nextest --partition", f"{command} --partition count:{shard}")
    found: Split | None = None
    if words[:2] == ["go", "test"]:
        packages = _go_packages(files)
        found = _by_files(command, checkout, packages, seconds, shard, "go packages")
    elif runner is not None and runner[0] == "node":
        nodes = _node_files(files)
        found = _by_files(command, checkout, {f: [f] for f in nodes}, seconds, shard,
                          "node --test's files")
    elif runner is not None and runner[0] == "mocha":
        specs = _mocha_files(command, files, checkout)
        if specs is not None:
            found = _by_files(command, checkout, {f: [f] for f in specs}, seconds, shard,
                              "mocha's spec files")
    if found is not None:
        return found
    return _whole(command, shard)
