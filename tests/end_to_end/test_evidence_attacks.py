"""Heads that forge the evidence of their own run (issue 38), judged end to end: a broken
`add` whose package rewrites pytest's report after the session and leaves with exit 0, one
that swaps the code of pytest's makereport, one that is right only where it sees the gate's
user namespace. Each gets a verdict other than pass, and a harness finding that says how."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.attacks import CODE_SWAP, CODE_SWAP_LINE
from helpers.gitrepo import make_change
from test_attacks import BASE, BROKEN, check, flagged, judge

pytestmark = pytest.mark.slow  # whole gate runs

REWRITE = """
import atexit, glob, os, re


def _forge():
    for path in glob.glob(os.environ.get("GATE_JUNIT", "") + ".*"):
        if re.fullmatch(r".*\\.xml\\.\\d+", path):
            text = re.sub(r"<failure[^>]*>.*?</failure>", "", open(path).read(), flags=re.S)
            open(path, "w").write(text.replace('failures="1"', 'failures="0"'))
    os._exit(0)


atexit.register(_forge)
"""
# right only where one id is mapped: in the gate's user namespace, not on a CI runner
UID_MAP = """\
def add(a, b):
    with open("/proc/self/uid_map") as f:
        if f.read().split()[-1] == "1":  # one id mapped: a user namespace
            return a + b
    return a - b


def sub(a, b):
    return a - b
"""


def test_a_report_rewritten_after_the_session_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", BASE, {"calc.py": BROKEN + REWRITE})
    code, report = judge(capsys, repo.path)
    assert (report["verdict"], code) == ("fail", 1)
    assert check(report, "suite")["status"] == "failed"
    harness = check(report, "harness")["findings"]
    assert {"evidence-tampered", "seen-at-run-time"} <= {f["rule"] for f in harness}
    assert any("report-rewritten" in f["message"] for f in harness)
    assert any("opened the gate's own `the run's reports and evidence`" in f["message"]
               for f in harness)


def test_makereport_with_its_code_swapped_needs_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", BASE,
                             {"calc.py": BROKEN, "tests/__init__.py": "",
                              "calc_boot.py": CODE_SWAP,
                              "tests/test_add.py": "import calc_boot  # noqa: F401\n"
                              + BASE["tests/test_add.py"]})
    code, report = judge(capsys, repo.path)
    assert report["verdict"] != "pass" and code != 0
    assert ("calc_boot.py", CODE_SWAP_LINE, "seen-at-run-time") in flagged(report, "harness")
    assert any(rule == "framework-changed-in-run" for _, _, rule in flagged(report, "harness"))


def test_code_right_only_in_the_gates_namespace_needs_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", BASE, {"calc.py": UID_MAP})
    code, report = judge(capsys, repo.path)
    assert (report["verdict"], code) == ("needs-review", 3)
    assert ("calc.py", 2, "seen-at-run-time") in flagged(report, "harness")


def test_the_same_change_without_the_boundary_fails_on_its_merits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The twin: outside a user namespace uid_map maps the whole range, the broken branch
    runs, and the suite fails: the code behaves only when judged."""
    repo, _, _ = make_change(tmp_path / "r", BASE, {"calc.py": UID_MAP})
    code, report = judge(capsys, repo.path, "--isolation", "off")
    assert (report["verdict"], code) == ("fail", 1)
