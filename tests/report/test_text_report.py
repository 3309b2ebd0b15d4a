"""The text report's closing lines, and each check printed once where a CI log reads stdout and
stderr as one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gate.models import CheckResult, Isolation, Report
from gate.report import text
from tests.helpers.gitrepo import Repo


def _honest_change(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "r")
    repo.commit({"calc.py": "def add(a, b):\n    return a + b\n",
                 "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                                       "    assert add(2, 3) == 5\n"})
    repo.branch("feature")
    repo.commit({"calc.py": "def add(a, b):\n    return b + a\n"})
    return repo


def _gate(repo: Repo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gate", *args, "--repo", str(repo.path)],
                          capture_output=True, text=True, check=False)


def test_a_scan_that_passes_says_only_the_diff_checks_ran(tmp_path: Path) -> None:
    done = _gate(_honest_change(tmp_path), "scan", "--base", "main")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-2:] == [
        done.stdout.splitlines()[-2],
        "Only the diff checks ran: `gate run` installs the change and runs its tests and the "
        "base's, which is what catches an edited assertion."]
    assert done.stdout.splitlines()[-2].startswith("verdict: pass (")


def test_each_check_is_printed_once_when_stdout_and_stderr_are_both_pipes(
        tmp_path: Path) -> None:
    """A CI runner reads both pipes into one log: the progress's check lines (stderr) are not
    repeated by the report (stdout)."""
    done = _gate(_honest_change(tmp_path), "scan", "--base", "main")
    lines = (done.stderr + done.stdout).splitlines()
    for check_id in ("tests-removed", "skip-markers", "diff-policy"):
        assert len([x for x in lines if f"  {check_id}: " in x]) == 1, lines


def test_a_shards_own_run_says_the_merge_gives_the_verdict() -> None:
    check = CheckResult("suite", "The suite passes", "passed", True, "1 of 1 runs passed")
    report = Report("pass", "a" * 40, "b" * 40, 3.25, (check,), Isolation("none", "off"),
                    shard={"index": 1, "total": 2})
    assert text.render(report).splitlines()[-1] == (
        "shard 1/2 done (3.2s): `gate merge` of every shard's report gives the verdict")


def test_uncommitted_changes_get_a_note_that_the_gate_judges_commits(tmp_path: Path) -> None:
    repo = _honest_change(tmp_path)
    assert "uncommitted" not in _gate(repo, "scan", "--base", "main").stderr
    (repo.path / "calc.py").write_text("def add(a, b):\n    return 5\n")
    done = _gate(repo, "scan", "--base", "main")
    assert ("gate: note: 1 uncommitted change(s) (calc.py) are not judged: the gate judges "
            "commits. Commit them first, or judge the staged ones with `gate scan --staged`"
            ) in done.stderr.splitlines()
    assert done.returncode == 0  # HEAD is what was judged, and it is honest
    assert "uncommitted" not in _gate(repo, "scan", "--base", "main", "--staged").stderr


def test_a_needs_review_ends_saying_a_person_approves_never_how_to_waive() -> None:
    """The report's last lines, which an agent reads after `gate run`: what to fix, and that a
    person approves the rest (issue 48)."""
    escape = CheckResult("escapes", "t", "failed", False, "1 new escape")
    report = Report("needs-review", "b" * 40, "h" * 40, 1.0, (escape,),
                    Isolation("none", "off"))
    lines = text.closing(report)
    assert lines[-1] == text.NEEDS_A_PERSON
    assert not any("gate: allow" in line for line in lines)
