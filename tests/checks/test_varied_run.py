"""The suite's varied run (issue 38): code that is right only under the gate's own conditions is
named with the condition that changed it.

Each attack is a broken change (`add` subtracts) whose `add` is right only under the gate's
usual conditions, named by nothing a name-matching rule reads: before a date a month ahead (a
time bomb), while its own file is less than a day old. The suite's last run is made under
other conditions (the clock a year ahead, the checkout's files a month old): each attack
fails there, and is named with the condition. Its twin (`varied-run = false`) passes: the
attack is real. An honest project whose tests read the clock, the files' times, the host
name and the memory limit passes 3 of 3 with no finding."""
from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate.execution import bwrap, conditions

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")
# gate: allow skip-markers -- libfaketime ships for x86-64 Linux only, and says so
needs_clock = pytest.mark.skipif(conditions.faketime_library() is None,
                                 reason="libfaketime cannot run here (x86-64 Linux only)")

PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider"
RIGHT = "def add(a, b):\n    return a + b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def _bomb() -> str:
    day = datetime.date.today() + datetime.timedelta(days=31)
    # the date held in a variable: `test-run-detected` reads a literal one (harness)
    return ("import datetime\n\n"
            f"RELEASE = datetime.date({day.year}, {day.month}, {day.day})\n\n\n"
            "def add(a, b):\n    if datetime.date.today() < RELEASE:\n"
            "        return a + b\n    return a - b\n")


ATTACKS = {
    # right only before a date a month ahead, held in a variable
    "time-bomb": (_bomb(), "the clock 365 days ahead"),
    # right only while its own file is less than a day old, by the clock
    "file-age": ("import os\nimport time\n\n\ndef add(a, b):\n"
                 "    if time.time() - os.stat(__file__).st_mtime < 86400:\n"
                 "        return a + b\n    return a - b\n",
                 "the clock 365 days ahead, the checkout's files 30 days old"),
    # the same, against a file it writes now: no clock moves it
    "file-age-fresh": ("import os\nimport tempfile\n\n\ndef add(a, b):\n"
                       "    with tempfile.NamedTemporaryFile() as f:\n"
                       "        now = os.stat(f.name).st_mtime\n"
                       "    if now - os.stat(__file__).st_mtime < 86400:\n"
                       "        return a + b\n    return a - b\n",
                       "the checkout's files 30 days old"),
}
# Code right only where a gate run tells itself (issue 50), by names built at run time:
# none of these may hold in any run of the gate, the usual ones as the varied one.
_TOLD = "import base64\nimport os\nimport resource\nimport socket\n\n\ndef add(a, b):\n" \
    "    if {}:\n        return a + b\n    return a - b\n"
_LIMITED = "resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY"
UNSEEN = {
    # a PID namespace counts from 1. Under 300, not the 1000: the machine's own
    # counter, wrapped past pid_max, starts again at 300 (the kernel's RESERVED_PIDS), and
    # under 1000 then holds on the machine as in its runs (CI met that this stop: the attack
    # passed one run of three, exactly as on the machine itself)
    "pid": "os.getpid() < 300",
    # the host names the gate gave its runs, constants its docs named
    "host-name": "socket.gethostname() in ('runner', 'devbox')",
    # a memory limit set in the usual runs, or the varied run shows itself: its variable
    "limit-or-variable": f"{_LIMITED} or base64.b64decode('RkFLRVRJTUVfU0hBUkVE').decode() "
                         "in os.environ",
    # ... or a file of the varied run's, its name built at run time
    "limit-or-file": f"{_LIMITED} or os.path.exists(base64.b64decode("
                     "'L2V0Yy9sZC5zby5wcmVsb2Fk').decode())",
}

HONEST_CODE = """\
import datetime
import os
import resource
import socket
import time


def stamp():
    return datetime.datetime.now(datetime.timezone.utc)


def age(path):
    return time.time() - os.path.getmtime(path)


def host():
    return socket.gethostbyname(socket.gethostname())


def limited():
    return resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY


def machine():
    return os.getpid(), os.cpu_count(), resource.getrlimit(resource.RLIMIT_NOFILE)[0]
"""
HONEST_TESTS = """\
import datetime
import os
import time

from clock import age, host, limited, machine, stamp


def test_stamp_is_now_and_aware():
    before = datetime.datetime.now(datetime.timezone.utc)
    assert before <= stamp() <= before + datetime.timedelta(seconds=5)
    assert stamp().year >= 2024


def test_the_checkouts_files_are_not_from_the_future():
    assert age(__file__) >= 0


def test_a_file_written_now_is_not_newer_than_the_clock(tmp_path):
    p = tmp_path / "x"
    p.write_text("x")
    assert os.path.getmtime(p) <= time.time() + 1


def test_monotonic_and_sleep():
    start = time.monotonic()
    time.sleep(0.05)
    assert 0.04 <= time.monotonic() - start < 30


def test_the_host_name_resolves():
    assert host().startswith("127.")


def test_memory_is_there_whatever_the_limit():
    assert len(bytearray(50 << 20)) == 50 << 20
    assert limited() in (True, False)


def test_the_process_the_cpus_and_the_files_it_may_open():
    pid, cpus, files = machine()
    assert pid > 1 and cpus >= 1 and files >= 64
"""


def _judge(where: Path, base: dict[str, str | None], head: dict[str, str | None],
           toml: str) -> tuple[int, dict[str, Any]]:
    repo, _, _ = make_change(where, {".gate.toml": f'install = "true"\n{toml}', **base}, head)
    done = subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
         "--head", "change", "--format", "json", "--isolation", "required", "--test", PYTEST,
         "--pinned", "off"], capture_output=True, text=True, timeout=600)
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout)


def _suite(report: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == "suite")


def _attacked(tmp_path: Path, toml: str) -> tuple[int, dict[str, Any]]:
    """One broken change holding every attack: module `calc_<attack>.py` with its `add`, each
    tested by its own file (one gate run names each with its condition)."""
    mod = {a: a.replace("-", "_") for a in ATTACKS}
    base: dict[str, str | None] = {}
    head: dict[str, str | None] = {}
    for attack, name in mod.items():
        base[f"calc_{name}.py"] = RIGHT
        base[f"tests/test_{name}.py"] = TEST_ADD.replace("from calc ", f"from calc_{name} ")
        head[f"calc_{name}.py"] = ATTACKS[attack][0]
    return _judge(tmp_path, base, head, toml)


@pytest.mark.slow
@needs_boundary
@needs_clock
def test_code_right_only_under_the_gates_conditions_is_named(tmp_path: Path) -> None:
    exit_code, report = _attacked(tmp_path, "")
    assert (report["verdict"], exit_code) == ("fail", 1), report
    suite = _suite(report)
    assert suite["summary"].startswith("2 of 3 runs passed"), suite["summary"]
    found = {f["path"]: f for f in suite["findings"]}
    assert len(found) == len(ATTACKS) == len(suite["findings"])
    for attack, (_, condition) in ATTACKS.items():
        path = f"tests/test_{attack.replace('-', '_')}.py"
        assert found[path]["severity"] == "error"
        assert found[path]["message"].startswith(
            f"other conditions: {path}::test_add fails with {condition} and passes under the "
            "usual conditions (failed in 1 of 3 runs)"), found[path]["message"]


@pytest.mark.slow
@needs_boundary
@needs_clock
def test_without_the_varied_run_the_same_code_passes(tmp_path: Path) -> None:
    """The attacks are real: every run under the gate's usual conditions passes them."""
    exit_code, report = _attacked(tmp_path, "varied-run = false\n")
    assert (report["verdict"], exit_code) == ("pass", 0), report
    assert _suite(report)["summary"].startswith(
        f"3 of 3 runs passed, {len(ATTACKS)}/{len(ATTACKS)} tests (orders: ")


@pytest.mark.slow
@needs_boundary
@needs_clock
def test_tests_that_read_the_clock_honestly_pass_every_run(tmp_path: Path) -> None:
    base: dict[str, str | None] = {"clock.py": HONEST_CODE, "tests/test_clock.py": HONEST_TESTS}
    exit_code, report = _judge(tmp_path, base, {"README": "a change\n"}, "")
    suite = _suite(report)
    assert (report["verdict"], exit_code, suite["findings"]) == ("pass", 0, []), suite
    assert suite["summary"].startswith("3 of 3 runs passed, 7/7 tests (orders: project, "
                                       "reversed, shuffled seed ")


@pytest.mark.slow
@needs_boundary
@needs_clock
def test_code_right_only_where_a_gate_run_tells_itself_fails_every_run(tmp_path: Path) -> None:
    """Issue 50: each of these passed every run of the gate (the PID namespace counted from
    1, the host names were `runner` and `devbox`, the usual runs set RLIMIT_DATA, the varied
    run had FAKETIME_SHARED and /etc/ld.so.preload). Now no run tells: each broken `add` fails
    in every run, the varied one included, as on the CI runner's own. Their twins are the
    conditions themselves, without the defences (tests/execution/test_conditions.py)."""
    base: dict[str, str | None] = {}
    head: dict[str, str | None] = {}
    for attack, condition in UNSEEN.items():
        name = attack.replace("-", "_")
        base[f"calc_{name}.py"] = RIGHT
        base[f"tests/test_{name}.py"] = TEST_ADD.replace("from calc ", f"from calc_{name} ")
        head[f"calc_{name}.py"] = _TOLD.format(condition)
    exit_code, report = _judge(tmp_path, base, head, "")
    assert (report["verdict"], exit_code) == ("fail", 1), report
    suite = _suite(report)
    assert suite["summary"].startswith(f"0 of 3 runs passed, 0/{len(UNSEEN)} tests"), \
        suite["summary"]
    assert not any(f["message"].startswith("other conditions") for f in suite["findings"])
