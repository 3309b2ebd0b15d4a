"""The scripts the test command runs, followed as check-config follows their config: the
base's test command, the recipes of its Makefile's `test` and `check` targets (and what they
run), its package.json test scripts; in those, each word naming a tracked script
(`python tools/run_tests.py`, `./scripts/test.sh`, `node scripts/test.mjs`), and in a shell
script so named, the scripts it names in turn. harness reads a changed script as code under
test, wherever it lies (a script under `tests/` that patches before `pytest.main()` is not a
test), and a changed shell script for what it sets in the test runner's environment."""
from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Iterable

from gate.checks.check_config import makefile, package_scripts
from gate.engine.context import DiffContext

SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts")
SHELL_SUFFIXES = (".sh", ".bash")
DEPTH = 3  # shell scripts named by shell scripts
MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
# What a shell line can set that changes what a test runner loads.
RUNNER_ENV = re.compile(
    r"(?<![\w-])(PYTEST_PLUGINS|PYTEST_ADDOPTS|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|LD_PRELOAD"
    r"|NODE_OPTIONS|NODE_PATH)\s*=|(?<![\w-])pytest\b[^\n#]*\s-p\s*(?!no:)([\w.]+)")


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def _named(commands: Iterable[str], tracked: set[str], here: str = "") -> set[str]:
    """Tracked scripts that the commands name (relative to the root, or to `here`)."""
    out = set()
    for command in commands:
        for word in _words(command):
            word = word.split("=", 1)[-1]  # --rcfile=x.sh, VAR=x
            for path in (word, posixpath.join(here, word)):
                path = posixpath.normpath(path.removeprefix("./"))
                if path in tracked and path.endswith(SCRIPT_SUFFIXES):
                    out.add(path)
    return out


def _commands(ctx: DiffContext) -> list[str]:
    """The base's test command and the test recipes and scripts that stand for it."""
    out = [ctx.config.test] if ctx.config.test else []
    for name in MAKEFILES:
        text = ctx.text(ctx.base, name)
        if text is not None:
            out += makefile.watched_recipes(makefile.parse(text))
    text = ctx.text(ctx.base, "package.json")
    try:
        scripts = json.loads(text or "{}").get("scripts", {})
    except (ValueError, AttributeError):
        scripts = {}
    if isinstance(scripts, dict):
        out += [str(scripts[n]) for n in package_scripts.watched(scripts)
                if isinstance(scripts.get(n), str)]
    return out


def scripts(ctx: DiffContext, tracked: set[str]) -> set[str]:
    """Every tracked script the base's test command runs, shell scripts followed."""
    found = _named(_commands(ctx), tracked)
    queue = [p for p in found if p.endswith(SHELL_SUFFIXES)]
    for _ in range(DEPTH):
        nxt = []
        for path in queue:
            text = ctx.text(ctx.head, path) or ""
            more = _named(text.splitlines(), tracked, posixpath.dirname(path)) - found
            found |= more
            nxt += [p for p in more if p.endswith(SHELL_SUFFIXES)]
        queue = nxt
    return found


def shell_hooks(lines: dict[int, str]) -> list[tuple[int, str]]:
    """(line, what) for each added shell line that sets what the test runner loads."""
    out = []
    for number in sorted(lines):
        text = lines[number].split("#", 1)[0] if not lines[number].lstrip().startswith(
            "#!") else ""
        match = RUNNER_ENV.search(text)
        if match is not None:
            out.append((number, match.group(1) or f"pytest -p {match.group(2)}"))
    return out
