"""action.yml and this repository's workflows: complete, pinned, and free of script injection;
docs/action.md documents every input and output; the run step's script passes inputs as
arguments."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text())
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]


def action_page() -> str:
    return (ROOT / "docs" / "action.md").read_text()


def all_steps() -> list[dict[str, Any]]:
    steps = list(STEPS)
    for path in WORKFLOWS:
        for job in YAML(typ="safe").load(path.read_text())["jobs"].values():
            steps += job.get("steps", [])
    return steps


def test_every_input_has_a_description_and_a_default() -> None:
    assert list(ACTION["inputs"]) == [
        "base", "head", "install", "test", "runs", "config", "isolation", "strict", "cache",
        "fail-on", "python-version", "token", "comment", "comment-mode", "logs-artifact", "label",
        "check-name", "mode", "required-checks", "stabilization-seconds"]
    for name, spec in ACTION["inputs"].items():
        assert spec["description"], name
        assert "default" in spec and spec.get("required", False) is False, name
    assert list(ACTION["outputs"]) == [
        "verdict", "report", "summary", "passed", "failed", "flaky"]
    assert ACTION["branding"] == {"icon": "shield", "color": "green"}


def test_the_description_fits_the_marketplace() -> None:
    """The Marketplace shows at most 125 characters of an Action's description."""
    assert len(ACTION["description"]) <= 125


def test_the_action_installs_the_github_extra_that_publish_needs() -> None:
    (install,) = [s for s in STEPS if s["name"] == "Install the gate into its own environment"]
    assert '"$GITHUB_ACTION_PATH[uv,github]"' in install["run"]


def test_the_action_page_documents_every_input_and_output() -> None:
    section = action_page()
    for name in [*ACTION["inputs"], *ACTION["outputs"]]:
        assert f"| `{name}` |" in section, name


def test_no_expression_inside_a_script() -> None:
    for step in all_steps():
        assert "${{" not in step.get("run", ""), step


def test_remote_actions_are_pinned_by_commit() -> None:
    uses = [s["uses"] for s in all_steps() if "uses" in s and s["uses"] != "./"]
    assert uses
    for ref in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", ref), ref


def test_the_gate_has_its_own_python_and_the_token_stays_out_of_the_run() -> None:
    (python,) = [s for s in STEPS if "setup-python" in s.get("uses", "")]
    assert python["with"]["update-environment"] is False
    (run,) = [s for s in STEPS if s["name"] == "Run the gate"]
    assert not [k for k in run["env"] if "TOKEN" in k]
    assert [s["name"] for s in STEPS if "GATE_GITHUB_TOKEN" in s.get("env", {})] == [
        "Start the check run", "Choose the mode", "Publish the verdict"]


@pytest.fixture
def runner_temp(tmp_path: Path) -> Path:
    """A stand-in `gate` that records its arguments and exits with $FAKE_EXIT."""
    gate = tmp_path / "gate-venv" / "bin" / "gate"
    gate.parent.mkdir(parents=True)
    gate.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$RUNNER_TEMP/args"\nexit "$FAKE_EXIT"\n')
    gate.chmod(0o755)
    return tmp_path


def run_step(runner_temp: Path, exit_code: int, **env: str) -> tuple[int, str, list[str]]:
    (runner_temp / "args").unlink(missing_ok=True)
    proc = subprocess.run(
        ["bash", str(ROOT / "action" / "run.sh")], capture_output=True, text=True,
        env={"PATH": os.environ["PATH"], "RUNNER_TEMP": str(runner_temp),
             "FAKE_EXIT": str(exit_code), **env})
    args = (runner_temp / "args").read_text().splitlines() if (
        runner_temp / "args").exists() else []
    return proc.returncode, proc.stdout, args


def test_what_the_gate_prints_in_the_run_step_is_never_a_workflow_command(
    runner_temp: Path
) -> None:
    """A test that prints `::error file=...::` shows up in the report's output excerpt: the
    run step stops workflow commands under a fresh random token while the gate runs."""
    gate = runner_temp / "gate-venv" / "bin" / "gate"
    gate.write_text("#!/bin/sh\necho '::error file=src/a.py::forged'\nexit 1\n")
    runs = [run_step(runner_temp, 1, GATE_BASE="b1", GATE_HEAD="h1")[1] for _ in range(2)]
    for out in runs:
        stop, forged, resume = out.splitlines()
        assert re.fullmatch(r"::stop-commands::gate-[0-9a-f]{32}", stop)
        assert forged == "::error file=src/a.py::forged"
        assert resume == f"::{stop.split('::')[2]}::"
    assert runs[0] != runs[1]


def test_run_step_passes_inputs_as_arguments(runner_temp: Path) -> None:
    code, _, args = run_step(runner_temp, 3, GATE_BASE="b1", GATE_HEAD="h1",
                             GATE_TEST="pytest -q; echo $(id)", GATE_RUNS="2",
                             GATE_STRICT="true", GATE_CONFIG="ci/gate.toml",
                             GATE_LOGS_ARTIFACT="gate-logs")
    assert code == 0
    report = f"{runner_temp}/gate-report.json"
    assert args == ["run", "--test", "pytest -q; echo $(id)", "--runs", "2",
                    "--logs", f"{runner_temp}/gate-logs", "--isolation", "required",
                    "--base", "b1", "--head", "h1", "--report", report, "--config", "ci/gate.toml",
                    "--strict"]
    _, _, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_ISOLATION="off",
                          GATE_CACHE="false")
    assert args == ["run", "--no-cache", "--isolation", "off", "--base", "b1", "--head", "h1",
                    "--report", report]
    code, _, args = run_step(runner_temp, 1, GATE_BASE="b1", GATE_HEAD="h1", GATE_MODE="checks",
                             GATE_TEST="ignored")
    assert (code, args) == (0, ["scan", "--base", "b1", "--head", "h1", "--report", report])


def test_a_second_gate_step_in_the_job_starts_with_no_logs(runner_temp: Path) -> None:
    (runner_temp / "gate-logs").mkdir()
    (runner_temp / "gate-logs" / "01-install.log").write_text("the first step's")
    code, _, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1",
                             GATE_LOGS_ARTIFACT="gate-logs-2")
    assert code == 0
    assert args[:2] == ["run", "--logs"]
    assert not (runner_temp / "gate-logs").exists()
    code, _, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1")
    assert "--logs" not in args


def test_run_step_fails_when_the_gate_cannot_judge(runner_temp: Path) -> None:
    code, out, _ = run_step(runner_temp, 2, GATE_BASE="b1", GATE_HEAD="h1")
    assert code == 2
    assert out.splitlines()[-1] == (
        "::error title=gate::the gate could not judge this change (exit 2): the message above "
        "says what to do")
    code, out, args = run_step(runner_temp, 0, GATE_BASE="", GATE_HEAD="h1")
    assert (code, args) == (2, [])
    assert out.startswith("::error title=gate::no base or head commit")
