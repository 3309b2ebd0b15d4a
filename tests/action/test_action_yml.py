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

ROOT = Path(__file__).resolve().parents[2]
ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text())
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
STEPS_USING = [s for s in STEPS if "uses" in s]


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
        "check-name", "mode", "required-checks", "stabilization-seconds", "agent-accounts",
        "shard"]
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
    assert '"$GITHUB_ACTION_PATH[github]"' in install["run"]


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
        assert re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}", ref), ref
    # Each pin says which release it is, in a comment on its line.
    lines = [row for row in (ROOT / "action.yml").read_text().splitlines() if " uses: " in row]
    assert len(lines) == len(STEPS_USING) == 8
    for row in lines:
        assert re.fullmatch(r" *uses: \S+@[0-9a-f]{40}  # v\d+\.\d+\.\d+", row), row


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


# --- sharding: the matrix's shard jobs and the merge job ---

def step(name: str) -> dict[str, Any]:
    (found,) = [s for s in STEPS if s["name"] == name]
    return found


def position(name: str) -> int:
    return [s["name"] for s in STEPS].index(name)


def test_a_shard_uploads_its_report_and_posts_nothing() -> None:
    """The shard's report goes to the artifact gate-shard-I, replaced by a re-run of its job;
    the check run, comment and verdict belong to the merge job."""
    upload = step("Upload the shard's report")
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["if"] == "inputs.shard != ''"
    assert upload["with"] == {"name": "gate-shard-${{ steps.run.outputs.shard-index }}",
                              "path": "${{ runner.temp }}/gate-shard",
                              "if-no-files-found": "error", "overwrite": True}
    assert step("Run the gate")["id"] == "run"
    assert step("Run the gate")["env"]["GATE_SHARD"] == "${{ inputs.shard }}"
    assert position("Run the gate") < position("Upload the shard's report")
    assert step("Start the check run")["if"] == "inputs.token != '' && inputs.shard == ''"
    assert step("Publish the verdict")["if"] == "always() && inputs.shard == ''"
    # Each shard's logs under a name of their own (one artifact name per run).
    logs = step("Upload the logs of every command")["with"]
    assert logs["name"] == ("${{ inputs.logs-artifact }}${{ steps.run.outputs.shard-index && "
                            "format('-shard-{0}', steps.run.outputs.shard-index) || '' }}")
    assert logs["overwrite"] is True
    # A shard's base outcomes are its share's: a cache entry per shard.
    cache = step("Restore the base outcomes")
    assert "format('shard-{0}-', inputs.shard)" in cache["with"]["key"]
    assert cache["if"] == "inputs.cache == 'true' && inputs.mode != 'merge'"


def test_merge_mode_downloads_every_shard_then_merges_then_publishes() -> None:
    download = step("Download the shards' reports")
    assert download["uses"].startswith("actions/download-artifact@")
    assert download["if"] == "inputs.mode == 'merge'"
    assert download["with"] == {"pattern": "gate-shard-*", "merge-multiple": True,
                                "path": "${{ runner.temp }}/gate-shards"}
    assert (position("Download the shards' reports") < position("Run the gate")
            < position("Publish the verdict"))
    publish = step("Publish the verdict")
    assert publish["run"] == (
        '"$RUNNER_TEMP/gate-venv/bin/gate" publish --report "$RUNNER_TEMP/gate-report.json"')
    # `gate publish` knows local, checks and auto: a merged report publishes as a local one.
    assert publish["env"]["GATE_MODE"] == (
        "${{ inputs.mode == 'merge' && 'local' || steps.mode.outputs.mode || inputs.mode }}")
    assert "merge" in ACTION["inputs"]["mode"]["description"]


def test_the_durations_are_pinned_to_the_run_and_saved_by_the_merge() -> None:
    """Shards restore the newest durations a merge saved; shard 1 saves them again under the
    run's key, which a re-run shard restores exactly (never what this run's merge saved)."""
    restore = step("Restore the test durations")
    pin = step("Pin the shards' durations to this run")
    save = step("Save the test durations")
    path = "${{ runner.temp }}/gate-durations.json"
    run_key = "gate-durations-${{ runner.os }}-run-${{ github.run_id }}-shards"
    assert restore["uses"].split("@")[0] == "actions/cache/restore"
    assert restore["if"] == "inputs.cache == 'true' && inputs.shard != ''"
    assert restore["with"] == {"path": path, "key": run_key,
                               "restore-keys": "gate-durations-${{ runner.os }}-merged-"}
    assert pin["uses"].split("@")[0] == "actions/cache/save"
    assert pin["with"] == {"path": path, "key": run_key}
    assert "startsWith(inputs.shard, '1/')" in pin["if"]
    assert "steps.durations.outputs.cache-hit != 'true'" in pin["if"]
    assert save["uses"].split("@")[0] == "actions/cache/save"
    assert save["if"] == "steps.run.outputs.durations != ''"
    assert save["with"] == {"path": path, "key": "gate-durations-${{ runner.os }}-merged-"
                            "${{ github.run_id }}-${{ github.run_attempt }}"}
    assert (position("Restore the test durations") < position("Run the gate")
            < position("Pin the shards' durations to this run"))
    assert position("Save the test durations") < position("Publish the verdict")


def test_the_shard_input_reaches_the_gate_as_shard(runner_temp: Path) -> None:
    output = runner_temp / "github-output"
    output.write_text("")
    code, _, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_SHARD="2/3",
                             GATE_ISOLATION="off", GITHUB_OUTPUT=str(output))
    durations = f"{runner_temp}/gate-durations.json"
    assert code == 0
    assert args == ["run", "--isolation", "off", "--shard", "2/3", "--durations", durations,
                    "--base", "b1", "--head", "h1",
                    "--report", f"{runner_temp}/gate-shard/shard-2.json"]
    assert output.read_text() == "shard-index=2\n"
    # No durations restored: an empty file, which shard 1 pins to the run.
    assert Path(durations).read_text() == '{"format": 1, "seconds": {}}\n'
    Path(durations).write_text('{"format": 1, "seconds": {"t.py": 2.0}}')
    _, _, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_SHARD="1/3",
                          GATE_ISOLATION="off", GATE_CACHE="false")
    assert args == ["run", "--no-cache", "--isolation", "off", "--shard", "1/3",
                    "--base", "b1", "--head", "h1",
                    "--report", f"{runner_temp}/gate-shard/shard-1.json"]
    assert Path(durations).read_text() == '{"format": 1, "seconds": {"t.py": 2.0}}'


def test_the_shard_directory_holds_this_shard_only(runner_temp: Path) -> None:
    """The artifact is the directory: a report left by an earlier gate step is not in it."""
    (runner_temp / "gate-shard").mkdir()
    (runner_temp / "gate-shard" / "shard-1.json").write_text("{}")
    run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_SHARD="3/3")
    assert list((runner_temp / "gate-shard").iterdir()) == []


@pytest.mark.parametrize("shard", ["2", "0/3", "4/3", "1/0", "a/2", "1/2 --strict", "-1/2"])
def test_a_bad_shard_input_says_the_form_and_runs_nothing(runner_temp: Path, shard: str) -> None:
    code, out, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_SHARD=shard)
    assert (code, args) == (2, [])
    assert out == ("::error title=gate::the shard input is I/N, shard I of N counted from 1 "
                   f"(e.g. `shard: ${{{{ matrix.shard }}}}/4`), not '{shard}'\n")


def test_a_shard_goes_with_mode_local(runner_temp: Path) -> None:
    code, out, args = run_step(runner_temp, 0, GATE_BASE="b1", GATE_HEAD="h1", GATE_SHARD="1/2",
                               GATE_MODE="merge")
    assert (code, args) == (2, [])
    assert "the shard input goes with mode local (the default), not merge" in out


def shard_reports(runner_temp: Path, *names: str) -> list[str]:
    shards = runner_temp / "gate-shards"
    shards.mkdir()
    for name in names:
        (shards / name).write_text("{}")
    return [str(shards / name) for name in sorted(names)]


def test_merge_mode_merges_every_downloaded_report(runner_temp: Path) -> None:
    reports = shard_reports(runner_temp, "shard-2.json", "shard-1.json", "shard-10.json")
    output = runner_temp / "github-output"
    output.write_text("")
    code, _, args = run_step(runner_temp, 3, GATE_MODE="merge", GATE_BASE="b1",
                             GATE_HEAD="h1", GATE_STRICT="true", GATE_CONFIG="ci/gate.toml",
                             GITHUB_OUTPUT=str(output))
    durations = f"{runner_temp}/gate-durations.json"
    assert code == 0
    assert args == ["merge", *reports, "--report", f"{runner_temp}/gate-report.json",
                    "--durations-out", durations, "--config", "ci/gate.toml", "--strict"]
    assert output.read_text() == f"durations={durations}\n"  # the merge's, to be saved
    output.write_text("")
    code, _, args = run_step(runner_temp, 0, GATE_MODE="merge", GATE_CACHE="false",
                             GITHUB_OUTPUT=str(output))
    assert args == ["merge", *reports, "--report", f"{runner_temp}/gate-report.json"]
    assert (code, output.read_text()) == (0, "")


def test_a_merge_that_misses_a_shard_fails_naming_it(runner_temp: Path) -> None:
    shard_reports(runner_temp, "shard-1.json", "shard-3.json")
    gate = runner_temp / "gate-venv" / "bin" / "gate"
    gate.write_text("#!/bin/sh\necho 'gate: error: shard(s) 2/3 missing: its job did not "
                    "write a report; re-run it, then merge again (100%)' >&2\nexit 2\n")
    output = runner_temp / "github-output"
    output.write_text("")
    code, out, _ = run_step(runner_temp, 2, GATE_MODE="merge", GITHUB_OUTPUT=str(output))
    assert code == 2
    assert out.splitlines()[-1] == (
        "::error title=gate: the shards cannot be merged::shard(s) 2/3 missing: its job did "
        "not write a report; re-run it, then merge again (100%25) (Re-run the shard job it "
        "names, or all jobs when it says every shard: the merge job runs again after it.)")
    assert output.read_text() == ""  # no durations saved from a merge that did not judge


def test_a_merge_with_no_report_downloaded_says_so(runner_temp: Path) -> None:
    code, out, args = run_step(runner_temp, 0, GATE_MODE="merge")
    assert (code, args) == (2, [])
    assert out.startswith("::error title=gate::no shard's report was downloaded (artifacts "
                          "gate-shard-*)")


def test_a_run_that_could_not_judge_leaves_its_report_to_the_publish_step(
    runner_temp: Path
) -> None:
    """`gate run` wrote a report and exited 2 (a command not found, failures alike on the
    base): the publish step reports it and exits 2 (tests/end_to_end/test_cannot_judge.py);
    without a report (bad input), the run step fails itself."""
    gate = runner_temp / "gate-venv" / "bin" / "gate"
    gate.write_text('#!/bin/sh\n[ -n "$WRITE" ] && echo "{}" > "$RUNNER_TEMP/gate-report.json"\n'
                    'exit 2\n')
    assert run_step(runner_temp, 2, GATE_BASE="b1", GATE_HEAD="h1", WRITE="1")[0] == 0
    assert run_step(runner_temp, 2, GATE_BASE="b1", GATE_HEAD="h1")[0] == 2
