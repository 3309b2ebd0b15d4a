"""User checks end to end: real repositories, real shell commands; and what every command's
output goes through (secrets out, a bounded detail)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate import cli

TOKEN = "ghp_" + "Zq9" * 12


def gate(capsys: pytest.CaptureFixture[str], repo: Path, *args: str,
         fmt: str = "json") -> tuple[int, Any, str]:
    code = cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change",
                     "--format", fmt, *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if fmt == "json" else captured.out, captured.err


def config(*checks: str, test: str = "true") -> str:
    return f'install = "true"\ntest = "{test}"\nruns = 1\n' + "".join(
        f"\n[[checks]]\n{c}\n" for c in checks)


def test_user_checks_run_in_order_after_the_built_ins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": config(
        'name = "build"\nrun = "test -f app.txt && echo built"',
        'name = "lint"\nrun = "echo style >&2; exit 3"\nrequired = false',
    ), "app.txt": "v1\n"}, {"app.txt": "v2\n"})
    code, report, _ = gate(capsys, repo.path)
    checks = {c["id"]: c for c in report["checks"]}
    assert [c["id"] for c in report["checks"]][-2:] == ["build", "lint"]
    assert (checks["build"]["status"], checks["build"]["required"]) == ("passed", True)
    assert checks["build"]["title"] == "`test -f app.txt && echo built`"
    lint = checks["lint"]
    assert (lint["status"], lint["required"], lint["summary"], lint["detail"]) == (
        "failed", False, "`echo style >&2; exit 3` failed with exit 3", "style")
    assert (report["verdict"], code) == ("pass", 0)  # an optional check never blocks


def test_a_failing_required_check_fails_the_gate_and_is_classified_by_the_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {
        ".gate.toml": config('name = "build"\nrun = "grep -qx ok app.txt"',
                             'name = "typecheck"\nrun = "grep -q typed app.txt"'),
        "app.txt": "ok\n"}, {"app.txt": "broken\n"})
    code, report, _ = gate(capsys, repo.path)
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["build"]["summary"] == (
        "`grep -qx ok app.txt` failed with exit 1; baseline: regression, passes at base")
    assert checks["typecheck"]["summary"] == (
        "`grep -q typed app.txt` failed with exit 1; baseline: pre-existing, fails at base "
        "too: not this change's doing")
    assert (report["verdict"], code) == ("fail", 1)  # pre-existing still blocks


def test_a_command_not_found_is_an_error_and_a_slow_one_times_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": config(
        'name = "typecheck"\nrun = "no-such-checker-xyz --strict"',
        'name = "slow"\nrun = "sleep 30"\ntimeout = 0.5\nrequired = false',
    )}, {"a.txt": "x\n"})
    _, report, _ = gate(capsys, repo.path)
    checks = {c["id"]: c for c in report["checks"]}
    assert (checks["typecheck"]["status"], checks["typecheck"]["summary"]) == (
        "error", "`no-such-checker-xyz --strict`: command not found; baseline: pre-existing, "
        "fails at base too: not this change's doing: the install lacks no-such-checker-xyz: "
        "set `install` in [tool.gate] on the base branch")
    assert (checks["slow"]["status"], checks["slow"]["summary"]) == (
        "timeout", "`sleep 30` timed out after 0.5s")
    assert report["verdict"] == "fail"


def test_user_checks_are_skipped_when_the_install_fails_and_by_scan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = config('name = "build"\nrun = "true"').replace('install = "true"', 'install = "false"')
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": cfg}, {"a.txt": "x\n"})
    _, report, _ = gate(capsys, repo.path)
    build = report["checks"][-1]
    assert (build["id"], build["status"], build["summary"]) == (
        "build", "skipped", "skipped: the install did not succeed")
    assert report["checks"][0]["summary"] == (
        "`false` failed with exit 1; baseline: the base does not install either (`false`)")
    cli.main(["scan", "--repo", str(repo.path), "--base", "main", "--head", "change",
              "--format", "json"])
    scanned = json.loads(capsys.readouterr().out)
    assert scanned["checks"][-1] == {**build, "summary": "not run by `gate scan`",
                                     "duration_s": 0.0}


def test_a_user_check_may_not_take_a_built_in_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, base, _ = make_change(tmp_path / "r", {".gate.toml": config(
        'name = "suite"\nrun = "true"')}, {"a.txt": "x\n"})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change"])
    assert code == 2
    assert capsys.readouterr().err == (
        f"gate: error: .gate.toml at {base[:12]}: the user check name 'suite' is a built-in "
        "check's id; rename it in [[tool.gate.checks]] on the base branch\n")


def test_a_token_printed_by_a_test_is_absent_from_every_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test prints a token it found in the repository, and the gate's own GITHUB_TOKEN is
    not in its environment."""
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": config(
        'name = "env"\nrun = "test -z \\"$GITHUB_TOKEN$GH_TOKEN\\" && env | grep -c TOKEN; true"',
        test="cat leaked.txt; echo $GITHUB_TOKEN; exit 1")}, {
        "leaked.txt": f"token={TOKEN}\nurl=https://bot:s3cretpass@example.com/x\n"})
    report_file = tmp_path / "report.json"
    code, text, err = gate(capsys, repo.path, "--report", str(report_file), fmt="text")
    assert code == 2  # the suite fails at base too: not the change's (engine/judgeable.py)
    everything = text + err + report_file.read_text()
    assert TOKEN not in everything
    assert "s3cretpass" not in everything
    assert "token=[redacted]" in text
    report = json.loads(report_file.read_text())
    env_check = report["checks"][-1]
    assert (env_check["id"], env_check["status"]) == ("env", "passed")


def test_the_detail_holds_the_failing_test_within_1500_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A node:test suite that prints 200 kB before failing: the detail leads with the test."""
    test_js = (
        "const { test } = require('node:test');\nconst assert = require('node:assert');\n"
        "test('noisy', () => { console.log('x'.repeat(200000)); });\n"
        "test('total is right', () => { assert.strictEqual(40 + 1, 42); });\n")
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": config(test="node --test")},
                             {"a.test.js": test_js})
    _, report, _ = gate(capsys, repo.path)
    suite = report["checks"][1]
    assert suite["summary"] == (
        "0 of 1 runs passed, 1/2 tests (run 1: exit 1); outcomes as node:test printed them "
        "(no witness of the gate's own); baseline: 1 regression(s)")
    assert len(suite["detail"]) <= 1500
    assert suite["detail"].startswith(
        "FAILED total is right (a.test.js:4)\n  Expected values to be strictly equal:\n")
    [finding] = suite["findings"]
    assert (finding["path"], finding["line"]) == ("a.test.js", 4)
    assert finding["message"].startswith("total is right failed in 1 of 1 runs")
    assert finding["message"].endswith("[regression: new at head]")  # node:test names all



def test_a_python_module_the_install_does_not_bring_is_an_error_not_a_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m mypy` without mypy: the check could not run (as a command not found), it
    found nothing wrong with the code. A tool that fails to import something of its own still
    fails."""
    repo, _, _ = make_change(tmp_path / "r", {".gate.toml": config(
        'name = "mypy"\nrun = "python3 -m no_such_module_for_gate"\nrequired = false',
        'name = "tool"\nrun = "python3 tool.py"\nrequired = false'),
        "tool.py": "import no_such_module_for_gate\n"}, {"tool.py": "import no_such_module_x\n"})
    _, report, _ = gate(capsys, repo.path)
    checks = {c["id"]: c for c in report["checks"]}
    assert (checks["mypy"]["status"], checks["mypy"]["summary"]) == (
        "error", "`python3 -m no_such_module_for_gate`: no module named "
        "no_such_module_for_gate: the install does not bring it")
    assert checks["tool"]["status"] == "failed"
