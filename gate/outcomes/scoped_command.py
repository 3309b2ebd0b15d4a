"""A test command narrowed to some test files, when its runner takes paths.

pytest takes test files; Jest, Vitest, Mocha and node:test take them too (through
`npm test -- FILES` when the package's test script is that runner alone); `cargo test` takes
integration test targets (`tests/NAME.rs` -> `--test NAME`); `go test ./...` takes package
directories. Anything else (a script that chains commands, an option with a value the gate
cannot tell from a path, in-file Rust tests) is run whole: slower, never wrong.
"""
from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from collections.abc import Sequence

from gate.execution import judged_files
from gate.outcomes.pytest_command import single_pytest_args

_JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_JS_RUNNERS = ("jest", "vitest", "mocha")
_NPM_TEST = (["npm", "test"], ["npm", "t"], ["npm", "run", "test"], ["npm", "run-script", "test"])
_CARGO_TARGET = re.compile(r"^tests/(?:([^/]+)\.rs|([^/]+)/main\.rs)$")


def _words(command: str) -> list[str] | None:
    """The words of a command with no shell operators or expansions; None otherwise."""
    if re.search(r"[;&|<>`$()*?]", command):
        return None
    try:
        return shlex.split(command)
    except ValueError:
        return None


def _options_only(words: Sequence[str]) -> bool:
    return all(w.startswith("-") and w != "--" for w in words)


def takes_js_paths(command: str) -> bool:
    """Jest, Vitest (`vitest run`), Mocha or `node --test`, with options only."""
    words = _words(command)
    if not words:
        return False
    if words[0] == "npx":
        words = words[1:]
    if not words:
        return False
    program = posixpath.basename(words[0])
    rest = words[1:]
    if program == "vitest" and rest[:1] == ["run"]:
        rest = rest[1:]
    if program == "node":
        return "--test" in rest and _options_only(rest)
    return program in _JS_RUNNERS and _options_only(rest)


def js_runner(command: str, checkout: str) -> tuple[str, str] | None:
    """The JavaScript runner behind `command` (jest, vitest, mocha or node for `node --test`)
    and what takes more arguments for it (`npm test --` when the package's test script is that
    runner alone); None when the command is something else."""
    words = _words(command)
    if not words:
        return None
    if words in _NPM_TEST:
        script = _npm_script(checkout)
        found = js_runner(script, checkout) if script and takes_js_paths(script) else None
        return (found[0], f"{command} --") if found else None
    if not takes_js_paths(command):
        return None
    program = posixpath.basename(words[1] if words[0] == "npx" else words[0])
    return program, command


def runner_command(command: str, checkout: str) -> str:
    """The command that starts the runner: the package's test script for `npm test`."""
    words = _words(command)
    script = _npm_script(checkout) if words in _NPM_TEST else None
    return script if script is not None else command


def _npm_script(checkout: str) -> str | None:
    try:  # read only a file (the install may have left a FIFO there)
        scripts = json.loads(judged_files.text(os.path.join(checkout, "package.json")) or
                             "").get("scripts", {})
    except (ValueError, AttributeError):
        return None
    script = scripts.get("test") if isinstance(scripts, dict) else None
    return script if isinstance(script, str) else None


def _quoted(files: Sequence[str]) -> str:
    return " ".join(shlex.quote(f) for f in files)


def _javascript(command: str, words: list[str], files: Sequence[str],
                checkout: str) -> str | None:
    if not all(f.endswith(_JS_SUFFIXES) for f in files):
        return None
    if words in _NPM_TEST:
        script = _npm_script(checkout)
        return (f"{command} -- {_quoted(files)}"
                if script is not None and takes_js_paths(script) else None)
    return f"{command} {_quoted(files)}" if takes_js_paths(command) else None


def _cargo(words: list[str], files: Sequence[str]) -> str | None:
    if words[:2] != ["cargo", "test"] or not _options_only(words[2:]):
        return None
    targets = []
    for f in files:
        match = _CARGO_TARGET.match(f)
        if match is None:
            return None  # a helper under tests/ or a unit test module: every target
        targets.append(match.group(1) or match.group(2))
    return shlex.join([*words, *(w for t in sorted(set(targets)) for w in ("--test", t))])


def _go(words: list[str], files: Sequence[str]) -> str | None:
    if words[:2] != ["go", "test"] or not all(f.endswith("_test.go") for f in files):
        return None
    rest = words[2:]
    if rest.count("./...") != 1 or not _options_only([w for w in rest if w != "./..."]):
        return None
    packages = sorted({"./" + posixpath.dirname(f) if posixpath.dirname(f) else "."
                       for f in files})
    at = rest.index("./...")
    return shlex.join(["go", "test", *rest[:at], *packages, *rest[at + 1:]])


def narrowed(command: str, files: Sequence[str], checkout: str) -> str | None:
    """`command` running only `files` (relative to `checkout`); None: run it whole."""
    if not files:
        return None
    if single_pytest_args(command) is not None:
        return (command + " " + _quoted(files)
                if all(f.endswith(".py") for f in files) else None)
    words = _words(command)
    if not words:
        return None
    return (_javascript(command, words, files, checkout) or _cargo(words, files)
            or _go(words, files))
