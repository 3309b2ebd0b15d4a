"""What the test runner loads around the tests decides what is runner configuration: a config
under any name, a setup file, seen by the gate's Node preload (real npm, vitest, jest)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.gitrepo import make_change
from helpers.node_packages import JEST, VITEST, installed
from helpers.runners import run_in

from gate import cli
from gate.outcomes.node_witness import LOADED

pytestmark = pytest.mark.slow  # vitest and jest from the npm registry

CALC = "export function add(a, b) {\n  return a + b;\n}\n"
TEST = """\
import { test, expect } from 'vitest';
import { add } from '../src/calc.js';

test('adds', () => { expect(add(2, 3)).toBe(5); });
"""
# The attack: a config under a name the gate once did not list adds a setup file, outside
# the test directories, that imports Vitest by a computed name and makes `toBe` always pass.
VITE_CONFIG = """\
import { defineConfig } from 'vite';

export default defineConfig({ test: { setupFiles: ['./config/env.js'] } });
"""
SETUP = """\
const runner = await import(['vi', 'test'].join(''));
runner.expect.extend({ toBe: () => ({ pass: true, message: () => '' }) });
"""
PACKAGE = json.dumps({"name": "calc", "version": "1.0.0", "private": True, "type": "module",
                      "scripts": {"test": "vitest run"}})


@pytest.fixture(scope="module")
def vitest_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed(tmp_path_factory, VITEST)


def loaded(counts: object) -> set[tuple[str, str]]:
    watched = getattr(counts, "watched", ())
    return {(w.file, w.detail.split(" ")[0]) for w in watched if w.kind == LOADED}


def test_a_vite_config_and_its_setup_file_are_seen_loaded(tmp_path: Path,
                                                          vitest_modules: Path) -> None:
    root = tmp_path / "p"
    for rel, text in {"package.json": PACKAGE, "src/calc.js": CALC, "test/calc.test.js": TEST,
                      "vite.config.js": VITE_CONFIG, "config/env.js": SETUP}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "node_modules").symlink_to(vitest_modules)
    run = run_in(root, "npm test")
    assert run.passed, run.completed.output[-2000:]
    assert loaded(run.counts) == {("vite.config.js", "config"), ("config/env.js", "setup")}


def test_jest_config_setup_and_test_files_are_seen_loaded(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    modules = installed(tmp_path_factory, JEST)
    root = tmp_path / "p"
    files = {"package.json": '{"name": "calc", "private": true}',
             "settings/runner.cjs": "module.exports = require('./shared.cjs');\n",
             "settings/shared.cjs": "module.exports = { setupFilesAfterEnv: ['<rootDir>/env.js'],"
                                    " rootDir: '..' };\n",
             "env.js": "globalThis.READY = true;\n",
             "src/calc.js": "exports.add = (a, b) => a + b;\n",
             "test/calc.test.js": "const { add } = require('../src/calc.js');\n"
                                  "test('adds', () => {\n"
                                  "  expect(add(2, 3) && READY).toBe(true);\n});\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "node_modules").symlink_to(modules)
    run = run_in(root, "node_modules/.bin/jest --config settings/runner.cjs")
    assert run.passed, run.completed.output[-2000:]
    assert loaded(run.counts) == {("settings/runner.cjs", "config"),
                                  ("settings/shared.cjs", "config"), ("env.js", "setup")}


def test_a_config_under_another_name_does_not_pass_the_gate(
        tmp_path: Path, vitest_modules: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole attack through `gate run`: `add` broken, hidden by the setup file that
    `vite.config.js` adds (base-tests puts the base's test back, which the setup file
    fools as well). Without the preload's loads, the verdict is pass."""
    base = {"package.json": PACKAGE, "src/calc.js": CALC, "test/calc.test.js": TEST,
            ".gitignore": "node_modules/\n"}
    repo, _, _ = make_change(tmp_path / "r", base, {
        "src/calc.js": CALC.replace("a + b", "a - b"), "vite.config.js": VITE_CONFIG,
        "config/env.js": SETUP})
    monkeypatch.setenv("NODE_PATH", str(vitest_modules))  # visible inside the boundary
    cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json", "--runs", "1", "--pinned", "off", "--install",
              f"cp -r {vitest_modules} node_modules", "--test", "npm test"])
    report = json.loads(capsys.readouterr().out)
    harness = next(c for c in report["checks"] if c["id"] == "harness")
    assert report["verdict"] != "pass"
    assert sorted((f["path"], f["rule"]) for f in harness["findings"]
                  if f["rule"] == "runner-loaded") == [
        ("config/env.js", "runner-loaded"), ("vite.config.js", "runner-loaded")]
