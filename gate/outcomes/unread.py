"""What the gate cannot see: a suite whose runner it cannot read (AVA, tap, Karma, bats, ...)
gives no per-test outcomes, and the suite's summary says so, naming the runner and what works
instead (its TAP reporter), rather than judging by the exit status in silence. A command of
the project's own (`make test`, `sh check.sh`) is not named: what it runs is unknown."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
from collections.abc import Sequence

from gate.models import CheckResult
from gate.outcomes.testrun import TestRun

# Runners the gate has no parser for, by the word that starts them; and, for those, the
# reporter whose output it reads (TAP's "# tests / # pass / # fail", as node:test's).
_TAP = {"ava": "`ava --tap`", "tap": "`tap --reporter=tap`", "tape": "tape's own TAP output",
        "jasmine": "a TAP reporter", "karma": "karma-tap-reporter",
        "qunit": "`qunit --reporter tap`", "lab": "`lab -r tap`",
        "bats": "`bats --formatter tap`", "prove": "its TAP output"}
READ = ("pytest, unittest, Jest, Vitest, Mocha, node:test, uvu, go test, cargo test and "
        "cargo-nextest")
_PACKAGE_MANAGERS = {"npm", "yarn", "pnpm", "bun"}
_WORD = re.compile(r"[\w.:@/-]+")


def _script(command: str, checkout: str) -> str:
    """`npm test` (or `yarn test`, `pnpm run x`): the package.json script it runs; else the
    command itself."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) < 2 or words[0] not in _PACKAGE_MANAGERS:
        return command
    name = words[2] if words[1] in ("run", "run-script") and len(words) > 2 else words[1]
    try:
        with open(os.path.join(checkout, "package.json"), encoding="utf-8") as f:
            scripts = json.load(f).get("scripts", {})
    except (OSError, ValueError, AttributeError):
        return command
    script: object = scripts.get(name) if isinstance(scripts, dict) else None
    return script if isinstance(script, str) else command


def runner(command: str, checkout: str) -> str | None:
    """The runner the gate cannot read that a test command runs, as its words (or its
    package.json script) name it; None for any other command (a script of the project's
    own: the gate cannot tell what it runs)."""
    text = _script(command, checkout)
    for found in _WORD.finditer(text):
        name = os.path.basename(found.group(0))
        if name in _TAP:
            return name
    return None


def note(name: str) -> str:
    """What the suite's summary adds when a runner the gate cannot read gave no per-test
    outcomes: which, what that costs, and what works instead."""
    return (f"; per-test outcomes: not available for {name} (the gate reads {READ}): the "
            "suite is judged by its exit status alone, and base-tests cannot name the test that "
            f"failed; {_TAP[name]} is read as node:test's TAP")


def said(result: CheckResult, runs: Sequence[TestRun], command: str, checkout: str,
         ) -> CheckResult:
    """The suite's result, with `note` where its runs ran a runner the gate cannot read and
    none gave per-test outcomes."""
    name = runner(command, checkout)
    if name is None or not runs or any(r.counts is not None or r.completed.not_found
                                       for r in runs):
        return result
    return dataclasses.replace(result, summary=result.summary + note(name))
