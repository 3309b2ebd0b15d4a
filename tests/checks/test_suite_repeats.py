"""The suite's repeats run one after another (issue 38's varied run, the order check): they
are made to tell a cause apart (the varied run's conditions, the order), and side by side,
runs that interfere with each other (a file written in a shared place) would pass for that
cause. Each test here records, from inside every repeat, whether another repeat was running
at the same moment; none may be."""
from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import project

from gate import cli

pytestmark = pytest.mark.slow  # whole gate runs


def _overlap_probe(shared: Path, marker: str) -> str:
    """Test code that, inside a repeat (its checkout's path holds `marker`), notes in `shared`
    that it started and whether another repeat was running while it slept."""
    return (
        "import os\nimport time\nfrom pathlib import Path\n\n"
        f"SHARED = Path({str(shared)!r})\n\n\n"
        "def _probe():\n"
        f"    if {marker!r} not in os.getcwd():\n"
        "        return\n"
        "    me = SHARED / f'running-{os.getpid()}'\n"
        "    (SHARED / f'repeat-{os.getpid()}').touch()\n"
        "    seen = [p for p in SHARED.glob('running-*')]\n"
        "    me.touch()\n"
        "    time.sleep(1)\n"
        "    seen += [p for p in SHARED.glob('running-*') if p != me]\n"
        "    me.unlink()\n"
        "    if seen:\n"
        "        (SHARED / f'overlapped-{os.getpid()}').touch()\n"
    )


def _judge(capsys: pytest.CaptureFixture[str], tmp_path: Path,
           tests: dict[str, str | None]) -> dict[str, Any]:
    repo, _, _ = make_change(tmp_path / "r", project(), tests)
    # --isolation off: the repeats write in one shared folder; --parallel: the runs (and,
    # before, the repeats) side by side
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json", "--isolation", "off", "--parallel", "--runs", "2",
                     "--pinned", "off"])
    out, err = capsys.readouterr()
    assert out, (code, err)
    report: dict[str, Any] = json.loads(out)
    return next(c for c in report["checks"] if c["id"] == "suite")


def _soon() -> int:
    """A month ahead, as the gate's usual runs see it (not as the test would, a year on)."""
    return (datetime.date.today() + datetime.timedelta(days=31)).toordinal()


def test_the_varied_runs_repeats_run_one_after_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A test right only before a date a month ahead fails in the varied run and is
    repeated under each condition: one repeat at a time."""
    shared = tmp_path / "shared"
    shared.mkdir()
    test = (_overlap_probe(shared, "checkout-conditions") +
            f"\n\nimport datetime\n\nSOON = datetime.date.fromordinal({_soon()})"
            "\n\n\ndef test_fresh():\n    _probe()\n"
            "    assert datetime.date.today() < SOON\n")
    suite = _judge(capsys, tmp_path, {"tests/test_limit.py": test})
    assert suite["status"] == "failed", suite["summary"]
    assert [f["message"].split(" and ")[0] for f in suite["findings"]] == [
        "other conditions: tests/test_limit.py::test_fresh fails with the clock 365 days "
        "ahead"]
    assert len(list(shared.glob("repeat-*"))) >= 2, "the conditions were repeated"
    assert list(shared.glob("overlapped-*")) == []


def test_the_order_repeats_run_one_after_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A test that fails when its file's other test ran first is repeated in both orders:
    one repeat at a time."""
    shared = tmp_path / "shared"
    shared.mkdir()
    test = (_overlap_probe(shared, "checkout-order") +
            "\n\nSEEN = []\n\n\ndef test_a_records():\n    _probe()\n    SEEN.append(1)\n\n\n"
            "def test_b_needs_nothing_before():\n    assert SEEN == [1]\n")
    suite = _judge(capsys, tmp_path, {"tests/test_order.py": test})
    assert suite["status"] == "failed", suite["summary"]
    assert any(f["message"].startswith("order-dependent: tests/test_order.py::"
                                       "test_b_needs_nothing_before fails in reversed order")
               for f in suite["findings"]), suite["findings"]
    assert len(list(shared.glob("repeat-*"))) >= 2, "both orders were repeated"
    assert list(shared.glob("overlapped-*")) == []
