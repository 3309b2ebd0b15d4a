"""Runners whose search for their configuration walks up from the checkout (issue 22): go
(`go.work`) and Mocha (`.mocharc.*`). A broken change's install plants a configuration above
the checkout that makes the broken code pass. The boundary refuses the plant (no directory
above a checkout is writable); go is also pinned (GOWORK=off where the checkout has no
go.work), so even without the boundary its plant is not read. Mocha has no such switch short
of editing the command (`--no-config`): without the boundary the attack works (the twin)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import Repo, make_change

from gate.execution import bwrap
from gate.outcomes.runners import go

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")
# gate: allow skip-markers -- only where go is missing, and says so; .ci/run has it
needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")

GO_MOD = ("module example.com/calc\n\ngo 1.19\n\nrequire example.com/mathx v0.0.0\n\n"
          "replace example.com/mathx => ./mathx\n")
MATHX_MOD = "module example.com/mathx\n\ngo 1.19\n"
ADDS = "package mathx\n\nfunc Add(a, b int) int { return a + b }\n"
SUBTRACTS = "package mathx\n\nfunc Add(a, b int) int { return a - b }\n"
GO_BASE = {
    "go.mod": GO_MOD, "mathx/go.mod": MATHX_MOD, "mathx/mathx.go": ADDS,
    "calc.go": 'package calc\n\nimport "example.com/mathx"\n\n'
               "func Add(a, b int) int { return mathx.Add(a, b) }\n",
    "calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n'
                    '\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n'}
# A go.work above the checkout: it uses the checkout, and replaces mathx with a right one.
PLANT_GO_WORK = (
    "mkdir -p ../fixed && cp mathx/go.mod ../fixed/ && "
    "printf 'package mathx\\n\\nfunc Add(a, b int) int { return a + b }\\n' > ../fixed/m.go && "
    "printf 'go 1.19\\n\\nuse ./checkout\\n\\nreplace example.com/mathx => ./fixed\\n' "
    "> ../go.work && echo GATE-EVIDENCE planted || echo GATE-EVIDENCE refused")


def go_test_in(checkout: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["go", "test", "./..."], cwd=checkout, capture_output=True,
                          text=True, env={**os.environ, "GOCACHE": str(checkout.parent / "gc"),
                                          "GOFLAGS": "", **env})


@pytest.fixture
def go_work_above(tmp_path: Path) -> Path:
    """A checkout of the broken change, and a go.work above it that fixes it."""
    repo = Repo(tmp_path / "checkout")
    repo.commit({**GO_BASE, "mathx/mathx.go": SUBTRACTS})
    subprocess.run(["sh", "-c", PLANT_GO_WORK], cwd=repo.path, check=True,
                   capture_output=True)
    return repo.path


@needs_go
def test_plain_go_reads_a_go_work_above_the_checkout(go_work_above: Path) -> None:
    """The attack is real: go takes the go.work above, and its replace makes `add` right."""
    done = go_test_in(go_work_above, {})
    assert done.returncode == 0, done.stdout + done.stderr


@needs_go
def test_the_gates_pin_keeps_go_to_the_checkouts_module(go_work_above: Path) -> None:
    pin = go.workspace_pin(str(go_work_above), {})
    assert pin == {"GOWORK": "off"}
    done = go_test_in(go_work_above, pin)
    assert done.returncode == 1 and "--- FAIL: TestAdd" in done.stdout, done.stderr


@needs_go
def test_a_project_with_its_own_go_work_keeps_it(tmp_path: Path) -> None:
    """Honest twin: a multi-module repository whose go.work puts its modules together is not
    pinned (go finds its go.work before anything above), and its tests pass."""
    repo = Repo(tmp_path / "checkout")
    files = {k: v for k, v in GO_BASE.items()}
    files["go.mod"] = GO_MOD.split("\n\nreplace")[0] + "\n"  # mathx only from the go.work
    repo.commit({**files, "go.work": "go 1.19\n\nuse (\n\t.\n\t./mathx\n)\n"})
    assert go.workspace_pin(str(repo.path), {}) == {}
    assert go.workspace_pin(str(repo.path), {"GOWORK": "/u/go.work"}) == {}
    done = go_test_in(repo.path, {})
    assert done.returncode == 0, done.stdout + done.stderr


def gate_run(repo: Path, mode: str, install: str, test: str, where: Path,
             env: dict[str, str] | None = None) -> tuple[dict[str, Any], str, set[str]]:
    """One gate run; its temporary root in a directory of the test's own (without the
    boundary the plants land above the checkout: there, never in the machine's /tmp)."""
    tmp, logs = where / "gate-tmp", where / "logs"
    tmp.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(repo), "--base", "main", "--head",
         "change", "--format", "json", "--isolation", mode, "--install", install, "--test",
         test, "--runs", "1", "--logs", str(logs)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "TMPDIR": str(tmp), **(env or {})})
    noted = {line.split(" ", 1)[1] for log in logs.glob("*.log")
             for line in log.read_text(errors="replace").splitlines()
             if line.startswith("GATE-EVIDENCE ")}
    return json.loads(proc.stdout) if proc.stdout.strip() else {}, proc.stderr, noted


def suite(report: dict[str, Any]) -> str:
    return str(next(c for c in report["checks"] if c["id"] == "suite")["status"])


@pytest.mark.slow
@needs_go
@needs_boundary
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_go_work_planted_above_the_checkout_is_not_read(tmp_path: Path, mode: str) -> None:
    """The install plants the go.work: refused with the boundary; planted without it, where
    GOWORK=off keeps go from reading it. The broken change fails either way."""
    repo, _, _ = make_change(tmp_path / "repo", GO_BASE, {"mathx/mathx.go": SUBTRACTS})
    report, err, noted = gate_run(repo.path, mode, PLANT_GO_WORK, "go test ./...", tmp_path,
                                  {"GOCACHE": str(tmp_path / "gocache")})
    assert noted == {"refused" if mode == "required" else "planted"}, err
    assert suite(report) == "failed", err


MOCHA_TEST = ("const assert = require('assert');\nconst { add } = require('../calc');\n\n"
              "it('adds', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n")
# A .mocharc.json above the checkout: it requires a module that makes every assertion pass.
PLANT_MOCHARC = (
    "ln -s \"$MOCHA_HOME/node_modules\" node_modules && "
    "printf 'require(\"assert\").strictEqual = () => {};\\n' > ../forge.js && "
    "printf '{\"require\": [\"%s/../forge.js\"]}' \"$PWD\" > ../.mocharc.json && "
    "echo GATE-EVIDENCE planted || echo GATE-EVIDENCE refused")


@pytest.fixture(scope="module")
def mocha_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mocha 10 from the npm registry, installed once for the module."""
    if shutil.which("npm") is None:
        # gate: allow skip-markers -- only where npm is missing, and says so; .ci/run has it
        pytest.skip("npm is not installed")
    root = tmp_path_factory.mktemp("mocha")
    (root / "package.json").write_text('{"name": "m", "version": "1.0.0", "private": true}')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "mocha@10"], cwd=root, check=True, capture_output=True,
                   env={**os.environ, "npm_config_cache": str(root / "npm-cache")})
    return root


@pytest.mark.slow
@needs_boundary
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_mocharc_planted_above_the_checkout(tmp_path: Path, mode: str,
                                             mocha_home: Path) -> None:
    """Mocha looks for `.mocharc.*` in every directory up from where it runs: the install
    plants one that requires a module making every assertion pass. With the boundary the
    plant is refused and the broken change fails; without it (the twin) it passes."""
    base = {"package.json": '{"name": "calc", "version": "1.0.0", "private": true}\n',
            "calc.js": "exports.add = (a, b) => a + b;\n", "test/calc.spec.js": MOCHA_TEST}
    repo, _, _ = make_change(tmp_path / "repo", base,
                             {"calc.js": "exports.add = (a, b) => a - b;\n"})
    report, err, noted = gate_run(repo.path, mode, PLANT_MOCHARC, "node_modules/.bin/mocha",
                                  tmp_path, {"MOCHA_HOME": str(mocha_home)})
    if mode == "required":
        assert noted == {"refused"}, err
        assert suite(report) == "failed", err
    else:
        assert noted == {"planted"}, err
        assert suite(report) == "passed", err  # the attack is real
