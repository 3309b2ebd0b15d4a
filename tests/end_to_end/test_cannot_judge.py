"""What the gate cannot judge is never the change's fail: a command not found, or failures
that happen the same way on the base, are exit 2 in every front door (`gate run`, the hooks,
`gate publish`), in the same words, saying what to set. And the judged commands see a CI
runner's environment, no more: a colour library's honest change passes."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import Repo, make_change

from gate import cli
from gate.engine import judgeable
from gate.github import publish
from gate.github.settings import Settings
from gate.report import json_report

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent
# A colour library in shell: colour unless NO_COLOR is set (https://no-color.org), and its
# test expects the colour, as the project's CI (which sets no NO_COLOR) gives it.
COLOUR = ('red() { if [ -n "$NO_COLOR" ]; then echo "$1"; '
          'else printf "\\033[31m%s\\033[0m\\n" "$1"; fi; }\n')
COLOUR_TEST = ('. ./colour.sh\n'
               'test "$(red hi)" = "$(printf "\\033[31mhi\\033[0m")" '
               '|| { echo "1 failed"; exit 1; }\n'
               'echo "1 passed, 0 failed"\n')
SAID = "gate: could not judge this change (exit 2, not the change's fail): "


def _run(repo: Repo, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--install", "true", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_test_command_not_found_at_base_and_head_is_exit_2_saying_what_to_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    code, _, err = _run(repo, capsys, "--test", "no-such-test-runner-gate")
    assert code == 2
    assert SAID in err
    assert "set `install` and `test` in [tool.gate]" in err
    assert "command not found" in err


def test_a_test_command_the_change_removes_is_the_changes_fail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The control: found on the base, gone at the head: the change's doing, exit 1."""
    repo, _, _ = make_change(tmp_path / "r", {"check.sh": 'echo "1 passed, 0 failed"\n'},
                             {"check.sh": None, "a.txt": "a\n"})
    code, _, err = _run(repo, capsys, "--test", "sh check.sh")
    assert code == 1
    assert SAID not in err


def test_an_install_command_not_found_is_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--install", "no-such-installer-gate", "--test", "true"])
    err = capsys.readouterr().err
    assert code == 2
    assert SAID + "the install could not run" in err
    assert "set `install` in [tool.gate]" in err


def test_a_suite_failing_alike_on_the_base_is_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"check.sh": 'echo "0 passed, 1 failed"; exit 1\n'},
                             {"a.txt": "a\n"})
    code, _, err = _run(repo, capsys, "--test", "sh check.sh")
    assert code == 2
    assert "happens on the base too" in err


def test_a_run_that_cannot_judge_prints_no_verdict_of_fail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One voice: before, the text report ended `verdict: fail` and the next line said the
    gate could not judge the change (exit 2, not the change's fail)."""
    repo, _, _ = make_change(tmp_path / "r", {"check.sh": 'echo "0 passed, 1 failed"; exit 1\n'},
                             {"a.txt": "a\n"})
    code, out, err = _run(repo, capsys, "--test", "sh check.sh", "--format", "text")
    assert code == 2
    assert "verdict: fail" not in out + err
    assert "verdict: none: the gate could not judge this change" in out
    assert "gate explain" not in out


def test_a_suite_the_change_breaks_is_still_its_fail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"check.sh": 'echo "1 passed, 0 failed"\n'},
                             {"check.sh": 'echo "0 passed, 1 failed"; exit 1\n'})
    code, _, err = _run(repo, capsys, "--test", "sh check.sh")
    assert code == 1
    assert SAID not in err


def test_a_colour_librarys_honest_change_passes_though_the_caller_sets_no_color(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The judged commands see what a CI runner sets (CI=true), and no NO_COLOR, TERM=dumb or
    FORCE_COLOR of the gate's or of the caller's shell."""
    monkeypatch.setenv("NO_COLOR", "1")
    repo, _, _ = make_change(tmp_path / "r", {"colour.sh": COLOUR, "check.sh": COLOUR_TEST},
                             {"README": "red() prints in red\n"})
    code, out, err = _run(repo, capsys, "--test", "sh check.sh")
    assert code == 0, out + err


def test_the_judged_commands_see_ci_true_and_nothing_the_gate_adds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "PYTHONDONTWRITEBYTECODE", "TERM"):
        monkeypatch.delenv(name, raising=False)
    check = ('if [ "$CI" = true ] && [ -z "${NO_COLOR+x}${FORCE_COLOR+x}'
             '${PYTHONDONTWRITEBYTECODE+x}${TERM+x}" ]; then echo "1 passed, 0 failed"; '
             'else env; exit 1; fi\n')
    repo, _, _ = make_change(tmp_path / "r", {"check.sh": check}, {"a.txt": "a\n"})
    code, out, err = _run(repo, capsys, "--test", "sh check.sh")
    assert code == 0, out + err


def test_the_push_hook_says_it_in_the_same_words_and_exits_2(tmp_path: Path) -> None:
    origin = Repo(tmp_path / "origin")
    origin.commit({".gate.toml": 'install = "true"\ntest = "no-such-test-runner-gate"\nruns = 1\n'})
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(origin.path), str(remote)], check=True)
    origin.git("remote", "add", "origin", str(remote))
    origin.git("fetch", "-q", "origin")
    base = origin.git("rev-parse", "HEAD").strip()
    head = origin.commit({"a.txt": "a\n"})
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["gate", "hook", "pre-push", "origin", str(remote)], cwd=origin.path,
                          input=f"refs/heads/main {head} refs/heads/main {base}\n", env=env,
                          capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert SAID in done.stdout
    assert "gate: fail" not in done.stdout  # one voice
    assert "set `install` and `test` in [tool.gate]" in done.stdout


def test_the_actions_publish_step_exits_2_with_the_same_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {"a.txt": "b\n"})
    path = tmp_path / "report.json"
    _run(repo, capsys, "--test", "no-such-test-runner-gate", "--format", "json",
         "--report", str(path))
    report = json_report.load(str(path))
    why = judgeable.why_not(report)
    assert why is not None
    out = io.StringIO()
    settings = Settings(step_summary=str(tmp_path / "summary.md"),
                        output=str(tmp_path / "output.txt"), fail_on="never")
    code = publish.publish(report, settings, str(path), out=out)
    assert code == 2  # no verdict to weigh against fail-on
    assert judgeable.said(why).replace("`", "") in out.getvalue()
    outputs = (tmp_path / "output.txt").read_text()
    assert "could not judge this change" in outputs
    assert "Could not judge this change" in (tmp_path / "summary.md").read_text()
