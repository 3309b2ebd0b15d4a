"""The evidence a test run sends as it happens (issue 38): outcomes on a channel the gate
opened before the judged process started, read while it runs. Each attack makes a broken
`add` look as if it passed by rewriting what the process says about itself after the fact,
and each is held against its twin: what the files it left say, read as the gate read them
before, which the attack fools."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from helpers.runners import run_in

from gate.outcomes import evidence
from gate.outcomes import reading as results
from gate.outcomes.record import Counts

PYTEST = f"{sys.executable} -m pytest -q"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
# An atexit hook, left by the package at import, that rewrites pytest's JUnit report once
# pytest has written it (the failure dropped) and leaves with exit status 0.
REWRITE = """\
import atexit
import glob
import os
import re


def _forge():
    for path in glob.glob(os.environ.get("GATE_JUNIT", "") + ".*"):
        if re.fullmatch(r".*\\.xml\\.\\d+", path):
            text = open(path).read()
            text = re.sub(r"<failure[^>]*>.*?</failure>", "", text, flags=re.S)
            text = text.replace('failures="1"', 'failures="0"')
            open(path, "w").write(text)
    os._exit(0)


atexit.register(_forge)
"""


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"tests/test_add.py": TEST_ADD, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _kinds(counts: Counts | None) -> set[str]:
    assert counts is not None
    return {problem.split(":", 1)[0] for problem in counts.evidence}


def test_a_report_rewritten_after_pytest_is_done_changes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": BROKEN + REWRITE})
    run = run_in(root, f"{PYTEST} tests")
    # the twin: the files the process left, read alone, say the broken add passed
    forged = results.read(run.completed.output, str(tmp_path / "p-scratch" / "report.xml"))
    assert forged is not None and (forged.passed, forged.failed) == (1, 0)
    assert run.completed.returncode == 0  # and the process said so too
    # what was sent as the test ran says it failed: the run does not pass
    assert run.counts is not None and (run.counts.passed, run.counts.failed) == (0, 1)
    assert not run.passed
    assert {"report-rewritten", "exit-disagrees"} <= _kinds(run.counts)
    assert "tests/test_add.py::test_add failed in the report" not in " ".join(run.counts.evidence)
    assert "tests/test_add.py::test_add passed in the report, failed as it ran" in " ".join(
        run.counts.evidence)


def test_an_honest_run_sends_what_its_report_says(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": "def add(a, b):\n    return a + b\n",
                                     "tests/test_more.py": "import pytest\n\n\n"
                                     "@pytest.mark.skip(reason='later')\ndef test_s():\n"
                                     "    pass\n\n\n@pytest.mark.xfail\ndef test_x():\n"
                                     "    assert 0\n"})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None
    assert run.counts.evidence == () and run.counts.watched == ()
    assert (run.counts.passed, run.counts.failed, run.counts.skipped) == (1, 0, 2)


def test_a_session_cut_short_with_exit_status_0_is_missing_its_end(tmp_path: Path) -> None:
    conftest = ("import os\n\n\ndef pytest_sessionfinish(session):\n"
                "    os._exit(0)\n")
    root = _project(tmp_path / "p", {"calc.py": BROKEN, "tests/conftest.py": conftest})
    run = run_in(root, f"{PYTEST} tests")
    assert run.completed.returncode == 0
    assert not run.passed  # the failure was sent before the session was cut
    assert "end-missing" in _kinds(run.counts)


def test_garbage_written_on_the_channel_is_tampering_not_silence(tmp_path: Path) -> None:
    conftest = ("import os\n\n\ndef pytest_configure(config):\n"
                "    with open(os.environ['GATE_EVIDENCE'], 'w') as f:\n"
                "        f.write('\\x00garbage\\n')\n")
    root = _project(tmp_path / "p", {"calc.py": "def add(a, b):\n    return a + b\n",
                                     "tests/conftest.py": conftest})
    run = run_in(root, f"{PYTEST} tests")
    assert "unreadable" in _kinds(run.counts)


def test_an_outcome_forged_on_the_channel_breaks_the_sessions_digest(tmp_path: Path) -> None:
    """Code in the process writes a passing report for the failing test on the channel: the
    session's own digest does not count it."""
    conftest = """\
import json
import os


def pytest_sessionfinish(session):
    fake = {"k": "report", "p": os.getpid(), "s": 0, "id": "tests/test_add.py::test_add",
            "when": "call", "outcome": "passed", "cat": "passed", "classname": "tests.test_add",
            "name": "test_add", "file": "tests/test_add.py", "line": 3, "xfail": False,
            "msg": "", "t": 0.0}
    with open(os.environ["GATE_EVIDENCE"], "w") as f:
        f.write(json.dumps(fake) + "\\n")
"""
    root = _project(tmp_path / "p", {"calc.py": BROKEN, "tests/conftest.py": conftest})
    run = run_in(root, f"{PYTEST} tests")
    assert not run.passed
    assert "digest" in _kinds(run.counts)


def _lines(*messages: dict[str, object]) -> list[bytes]:
    return [json.dumps(m).encode() for m in messages]


def test_a_message_after_its_session_ended_is_late_and_a_repeated_open_is_said() -> None:
    found = evidence.read(_lines({"k": "open", "s": 0}, {"k": "open", "s": 0},
                                 {"k": "end", "s": 0, "digest": "x"},
                                 {"k": "report", "s": 0, "id": "t"}), "/nowhere")
    kinds = {p.split(":", 1)[0] for p in found.problems}
    assert kinds == {"repeated", "digest", "late"}


def test_a_long_message_sent_in_parts_is_joined_again() -> None:
    text = json.dumps({"k": "watch", "what": "proc-read", "detail": "x" * 9000,
                       "file": "/c/calc.py", "line": 3})
    slices = [text[i:i + 4000] for i in range(0, len(text), 4000)]
    parts = [{"k": "part", "p": 1, "m": 1, "i": i, "n": len(slices), "d": d}
             for i, d in enumerate(slices)]
    found = evidence.read(_lines(*reversed(parts)), "/c")
    assert found.problems == []
    assert [(w.kind, w.file, w.line) for w in found.watched] == [("proc-read", "calc.py", 3)]
    cut = evidence.read(_lines(*parts[:2]), "/c")
    assert cut.problems == ["unreadable: a message sent in parts, not all of them"]


def test_the_closing_summary_line_is_read_in_pytests_wordings() -> None:
    assert evidence.summary_counts("x\n==== 1 failed, 2 passed, 1 warning in 0.12s ====\n") == {
        "failed": 1, "passed": 2}
    assert evidence.summary_counts("3 passed, 1 xfailed, 2 errors in 1.02s (0:00:01)") == {
        "passed": 3, "xfailed": 1, "error": 2}
    assert evidence.summary_counts("no summary here") is None


def test_a_session_that_dies_with_a_failing_status_is_a_failure_not_tampering(
        tmp_path: Path) -> None:
    """pytest-timeout's thread method, a crash in a C extension: the process leaves with a
    failing status before pytest ends. The run fails; nothing says the evidence was forged."""
    test = "import os\n\n\ndef test_dies():\n    os._exit(1)\n"
    root = _project(tmp_path / "p", {"calc.py": "def add(a, b):\n    return a + b\n",
                                     "tests/test_dies.py": test})
    run = run_in(root, f"{PYTEST} tests")
    assert run.completed.returncode == 1 and not run.passed
    assert run.counts is not None and run.counts.evidence == ()
    assert (run.counts.passed, run.counts.failed) == (1, 0)  # as sent before it died
