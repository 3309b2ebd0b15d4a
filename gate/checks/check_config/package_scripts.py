"""package.json scripts that decide how the code is checked: the watched ones and every script
they call, transitively.

Watched: `test`, `pretest`, `posttest`, `build`, `prebuild`, `lint`, `typecheck`, the
install's lifecycle scripts (`preinstall`, `install`, `postinstall`, `prepublish`,
`preprepare`, `prepare`, `postprepare`: the gate's install runs them before any test, and they
can rewrite what the tests load, `node_modules` included) and scripts named `test:*`,
`build:*`, `lint:*`, `typecheck:*`. A script calls another through `npm run X`
(`npm test`, `npm run-script X`), `yarn [run] X`, `pnpm [run] X`, `bun run X`, `npm-run-all`,
`run-s`, `run-p` (with globs such as `lint:*`) and `concurrently "npm:X"`; the `pre` and `post`
scripts of a called script run with it.
"""
from __future__ import annotations

import fnmatch
import re
import shlex
from collections.abc import Iterator, Mapping

WATCHED = ("test", "pretest", "posttest", "build", "prebuild", "lint", "typecheck",
           "preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
           "postprepare")
PREFIXES = ("test:", "build:", "lint:", "typecheck:")
_NPM_LIFECYCLE = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                  "restart": "restart"}
_RUNNERS = ("npm-run-all", "npm-run-all2", "run-s", "run-p")
_SEPARATORS = re.compile(r"&&|\|\||[;|&]")


def is_watched(name: str) -> bool:
    return name in WATCHED or name.startswith(PREFIXES)


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _names(words: list[str]) -> Iterator[str]:
    """Script names (or globs) that one command, split into words, runs."""
    args = [w for w in words if not w.startswith("-")]
    while args and "=" in args[0]:  # FOO=1 npm test
        args = args[1:]
    if len(args) < 2:
        return
    tool, first = args[0].rsplit("/", 1)[-1], args[1]
    if tool == "npm":
        if first in ("run", "run-script") and len(args) > 2:
            yield args[2]
        elif first in _NPM_LIFECYCLE:
            yield _NPM_LIFECYCLE[first]
    elif tool in ("yarn", "pnpm", "bun"):
        if first == "run" and len(args) > 2:
            yield args[2]
        elif tool != "bun":
            yield first
    elif tool in _RUNNERS:
        yield from args[1:]
    elif tool == "concurrently":
        for arg in args[1:]:
            if arg.startswith("npm:"):
                yield arg[4:]
            else:
                yield from _called_in(arg)


def _called_in(command: str) -> Iterator[str]:
    for part in _SEPARATORS.split(command):
        yield from _names(_words(part))


def called(command: str, scripts: Mapping[str, object]) -> list[str]:
    """The scripts of `scripts` that `command` runs, with their pre and post scripts."""
    out: list[str] = []
    for pattern in _called_in(command):
        for name in scripts:
            if name == pattern or fnmatch.fnmatchcase(name, pattern.replace(":*", ":[!:]*")):
                out.extend(n for n in (f"pre{name}", name, f"post{name}") if n in scripts)
    return out


def watched(scripts: Mapping[str, object]) -> dict[str, str]:
    """Watched script -> the watched script that calls it (itself for a watched name)."""
    found: dict[str, str] = {}
    queue = [(n, n) for n in scripts if is_watched(n)]
    while queue:
        name, root = queue.pop(0)
        if name in found:
            continue
        found[name] = root
        command = scripts.get(name)
        if isinstance(command, str):
            queue.extend((n, root) for n in called(command, scripts))
    return found
