"""pinned's mutant runs, with real subprocesses and no boundary: each in its own copy of the
checkout with its one change, and none started once the time budget is spent."""
from __future__ import annotations

import os
from pathlib import Path

from gate.execution.run_workspace import Workspace
from gate.mutants import apply
from gate.pinned import runs

SOURCE = "def f(a):\n    return a + 1\n\n\ndef g(a):\n    return a * 2\n"
# The "suite": fails when the copy it runs in holds the mutant of line 2; takes 0.4 s.
COMMAND = "sleep 0.4; grep -q 'a + 1' m.py"


def workspace(tmp_path: Path) -> Workspace:
    checkout, scratch = tmp_path / "checkout", tmp_path / "scratch"
    checkout.mkdir()
    scratch.mkdir()
    (checkout / "m.py").write_text(SOURCE)
    return Workspace(str(checkout), str(scratch), {"PATH": os.environ["PATH"]}, 30.0)


def test_each_mutant_runs_in_its_own_copy_and_the_checkout_is_untouched(
        tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    chosen = list(apply.per_line("m.py", SOURCE.encode(), {2, 6}).values())
    done = runs.mutants(ws, str(tmp_path / "pinned"), COMMAND, chosen, lambda path: [],
                        seconds=60, workers=2, limits=runs.Limits(lambda tests: 30.0, 30.0))
    assert [(d.mutant.line, d.run is not None and d.run.passed) for d in done] == [
        (2, False), (6, True)]  # line 2's mutant is killed, line 6's survives
    assert (Path(ws.checkout) / "m.py").read_text() == SOURCE
    assert not any((tmp_path / "pinned").iterdir())  # the copies are gone


def test_no_mutant_is_started_that_would_end_past_the_budget(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    chosen = list(apply.per_line("m.py", SOURCE.encode(), {2, 6}).values())
    done = runs.mutants(ws, str(tmp_path / "pinned"), COMMAND, chosen, lambda path: [],
                        seconds=0.2, workers=1, limits=runs.Limits(lambda tests: 30.0, 30.0))
    assert [d.run is not None for d in done] == [True, False]


def test_a_fifo_the_install_left_in_the_checkout_neither_blocks_nor_breaks_the_copies(
        tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    os.mkfifo(Path(ws.checkout) / "left-by-install.fifo")  # nobody will ever write it
    chosen = list(apply.per_line("m.py", SOURCE.encode(), {2, 6}).values())
    done = runs.mutants(ws, str(tmp_path / "pinned"), COMMAND, chosen, lambda path: [],
                        seconds=60, workers=2, limits=runs.Limits(lambda tests: 30.0, 30.0))
    assert [(d.mutant.line, d.run is not None and d.run.passed) for d in done] == [
        (2, False), (6, True)]
    assert (Path(ws.checkout) / "left-by-install.fifo").is_fifo()  # the checkout's own stays


def test_the_base_code_is_put_over_the_checkout_for_the_run_and_back(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    run = runs.on_base_code(ws, "grep -q 'a - 1' m.py && test ! -e new.py",
                            {"m.py": SOURCE.replace("a + 1", "a - 1").encode(), "new.py": None},
                            [])
    assert run.passed
    assert (Path(ws.checkout) / "m.py").read_text() == SOURCE


def test_a_new_test_that_hangs_on_the_base_code_is_cut_at_a_mutants_time(
        tmp_path: Path) -> None:
    """mahmoud/boltons 3e9983d: the head's new test loops forever on the base's code. Its run
    there ends at the time one mutant's run may take, not the suite's whole timeout."""
    import subprocess
    import sys
    import time

    from helpers.gitrepo import make_change

    from gate.checks import pinned
    from gate.engine import config
    from gate.engine.context import DiffContext
    from gate.vcs import diff

    repo, base, head = make_change(tmp_path / "r", {
        "calc.py": "def f():\n    while True:\n        pass\n",
        "test_calc.py": "def test_nothing():\n    pass\n"}, {
        "calc.py": "def f():\n    return 1\n",
        "test_calc.py": "from calc import f\n\n\ndef test_f():\n    assert f() == 1\n"})
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(repo.path), str(checkout)], check=True)
    subprocess.run(["git", "-C", str(checkout), "checkout", "-q", head], check=True)
    (tmp_path / "scratch").mkdir()
    ws = Workspace(str(checkout), str(tmp_path / "scratch"), {"PATH": os.environ["PATH"]}, 600.0)
    ctx = DiffContext(repo=str(repo.path), base=base, head=head, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base, head))
    start = time.monotonic()
    result = pinned.run(ctx, ws, f"{sys.executable} -m pytest -q -p no:cacheprovider",
                        str(tmp_path / "pinned"), True,
                        pinned.Budget(mutants=0, seconds=10,
                                      limits=runs.Limits(lambda tests: 3.0, 3.0)))
    assert time.monotonic() - start < 60
    assert result.summary.startswith("the new tests do not run on the base code (timed out")
