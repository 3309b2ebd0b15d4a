"""check-config on package.json scripts: the watched scripts and every script they call."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.configcheck import found

from gate.checks.check_config import package_scripts

SCRIPTS = {
    "start": "node server.js",
    "test": "npm run unit && yarn e2e",
    "unit": "jest",
    "e2e": "playwright test",
    "pree2e": "node scripts/seed.js",
    "lint": "run-p 'lint:*'",
    "lint:js": "eslint .",
    "typecheck": "pnpm run tsc",
    "tsc": "tsc --noEmit",
    "build": "concurrently \"npm:bundle\" \"bun run css\"",
    "bundle": "esbuild src/index.ts",
    "css": "postcss src/app.css",
    "format": "prettier --write .",
}
NOTE = "this setting decides what the checks catch"


def _package(scripts: dict[str, str]) -> str:
    return json.dumps({"name": "x", "scripts": scripts}, indent=2) + "\n"


@pytest.mark.parametrize(("name", "command", "caller"), [
    ("unit", "jest --passWithNoTests", "test"),
    ("e2e", "true", "test"),
    ("pree2e", "exit 0", "test"),
    ("tsc", "tsc --noEmit --skipLibCheck", "typecheck"),
    ("bundle", "echo skip", "build"),
    ("css", "true", "build"),
])
def test_called_script_changed(tmp_path: Path, name: str, command: str, caller: str) -> None:
    head = _package({**SCRIPTS, name: command})
    line = head.splitlines().index(f'    "{name}": {json.dumps(command)},') + 1
    assert found(tmp_path, {"package.json": _package(SCRIPTS)}, {"package.json": head}) == [
        (line, "package-scripts", f'script "{name}" (run by "{caller}"): '
         f"{json.dumps(SCRIPTS[name])} -> {json.dumps(command)}; {NOTE}")]


def test_called_script_removed(tmp_path: Path) -> None:
    head = _package({k: v for k, v in SCRIPTS.items() if k != "unit"})
    assert found(tmp_path, {"package.json": _package(SCRIPTS)}, {"package.json": head}) == [
        (3, "package-scripts", f'script "unit" (run by "test"): "jest" -> (unset); {NOTE}')]


def test_scripts_nobody_watched_calls_raise_nothing(tmp_path: Path) -> None:
    head = _package({**SCRIPTS, "start": "node app.js", "format": "prettier --check ."})
    assert found(tmp_path, {"package.json": _package(SCRIPTS)}, {"package.json": head}) == []


@pytest.mark.parametrize(("command", "called"), [
    ("npm test", ["test"]),
    ("npm t -- --watch", ["test"]),
    ("npm run-script unit --silent", ["unit"]),
    ("CI=1 yarn run e2e", ["pree2e", "e2e"]),
    ("yarn install && yarn unit", ["unit"]),
    ("npm-run-all --parallel lint:* tsc", ["lint:js", "tsc"]),
    ("run-s 'lint:*'", ["lint:js"]),
    ("concurrently -k \"npm:unit\" \"npm run tsc\"", ["unit", "tsc"]),
    ("node scripts/test.js; echo npm run unit", []),
])
def test_called(command: str, called: list[str]) -> None:
    assert package_scripts.called(command, SCRIPTS) == called
