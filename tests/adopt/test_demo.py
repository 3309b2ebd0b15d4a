"""`gate demo`: the real gate on the repository it builds, catching a break that the agent's
own suite hides; the temporary repository goes unless --keep."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate.adopt import demo_repo

BIN = Path(sys.executable).parent


def _demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "gate"), "demo", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def _where(out: str) -> Path:
    found = re.search(r"^gate demo: a repository in (\S+), with two branches:$", out, re.M)
    assert found, out
    return Path(found.group(1))


def test_the_agents_own_suite_passes_and_the_bases_passes_on_the_base(tmp_path: Path) -> None:
    """The demo is honest: each side's suite passes on its own commit."""
    base, head = demo_repo.build(str(tmp_path))
    assert subprocess.run(["git", "branch", "--format=%(HEAD) %(refname:short) %(objectname)"],
                          cwd=tmp_path, capture_output=True, text=True).stdout == (
        f"* agent {head}\n  main {base}\n")
    for sha, ran in ((base, "Ran 3 tests"), (head, "Ran 4 tests")):
        subprocess.run(["git", "checkout", "-q", sha], cwd=tmp_path, check=True)
        done = subprocess.run([sys.executable, "-m", "unittest", "-v"], cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert ran in done.stderr


@pytest.mark.slow
def test_demo_catches_the_hidden_break_and_cleans_up(tmp_path: Path) -> None:
    done = _demo(cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert ("test_calc.py:13: skip-markers: new skip marker `unittest.skip`: the test it marks "
            "no longer runs [unittest.skip]") in lines
    assert [line for line in lines if line.startswith("test_calc.py:10: base-tests: ")] == [
        "test_calc.py:10: base-tests: the base version of test_calc.TestCalc.test_mean fails on "
        "the head code: the change altered behaviour this test pinned down (a bug fix, or a "
        "regression hidden by editing the test): AssertionError: 2 != 2.3333333333333335 "
        "within 7 places (0.3333333333333335 difference) [base-test-failed]"]
    assert ("gate demo: the gate answered needs-review (exit 3) on a change whose own suite "
            "passes:") in lines
    assert "  - skip-markers found the new @unittest.skip: a test that no longer runs." in lines
    # the README says 3 runs; the demo says why its suite line reads "2 of 2 runs"
    assert "the demo's config sets" in done.stdout and "2 of 2 runs passed" in done.stdout
    assert not _where(done.stdout).exists()
    assert list(tmp_path.iterdir()) == []  # nothing written where it was run


@pytest.mark.slow
def test_demo_keep_leaves_a_repository_the_gate_judges_the_same(tmp_path: Path) -> None:
    done = _demo("--keep", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    root = _where(done.stdout)
    try:
        assert done.stdout.endswith(f"gate demo: the repository is kept in {root}\n")
        again = subprocess.run([str(BIN / "gate"), "run", "--base", "main", "--format", "json"],
                               cwd=root, capture_output=True, text=True)
        assert again.returncode == 3
        assert '"verdict": "needs-review"' in again.stdout
    finally:
        subprocess.run(["rm", "-rf", str(root)], check=True)
