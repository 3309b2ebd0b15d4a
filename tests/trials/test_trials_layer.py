"""Trials in the sealed boundary with overlays: each trial's files in a layer of its own above
the install's checkout, so two trials side by side never see each other's files and the shared
checkout is never written (real bubblewrap, real overlays)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from gate.execution import bwrap, isolation
from gate.execution.run_workspace import Workspace
from gate.trials import layer, scheduler
from gate.trials.trial import Trial

# Each trial says what it sees: the shared file's content, and whether the other's file is there.
SEES = ("sleep 0.5; cat shared.txt > \"$OUT\"; ls >> \"$OUT\"; "
        "echo written > written-by-trial.txt")


def _sealed(tmp_path: Path) -> Workspace:
    boundary = isolation.choose("auto")
    if boundary.bwrap is None or not boundary.overlays:
        pytest.fail("this machine gives no bubblewrap with overlays: the test needs them")
    root = tmp_path / "root"
    checkout, scratch = root / "checkout", root / "scratch"
    checkout.mkdir(parents=True)
    scratch.mkdir()
    (checkout / "shared.txt").write_text("the install's\n")
    (checkout / "gone-in-b.txt").write_text("here\n")
    return Workspace(str(checkout), str(scratch), {"PATH": os.environ["PATH"]}, 60,
                     boundary=boundary, sealed=True)


def test_two_trials_side_by_side_each_see_only_their_own_layer(tmp_path: Path) -> None:
    ws = _sealed(tmp_path)
    assert layer.usable(ws)
    scratch = Path(ws.scratch)
    trials = [
        Trial("a", ws, SEES.replace("$OUT", f"{scratch}/a.out"),
              overlay_files={"shared.txt": b"trial a's\n", "only-a.txt": b"a\n"}),
        Trial("b", ws, SEES.replace("$OUT", f"{scratch}/b.out"),
              overlay_files={"shared.txt": b"trial b's\n", "gone-in-b.txt": None}),
    ]
    outcomes = scheduler.run(trials, at_once=2)
    assert [o.run.passed for o in outcomes] == [True, True]
    assert (scratch / "a.out").read_text().split() == [
        "trial", "a's", "gone-in-b.txt", "only-a.txt", "shared.txt"]
    assert (scratch / "b.out").read_text().split() == ["trial", "b's", "shared.txt"]
    checkout = Path(ws.checkout)  # never written: not by the gate, not by the trials
    assert sorted(p.name for p in checkout.iterdir()) == ["gone-in-b.txt", "shared.txt"]
    assert (checkout / "shared.txt").read_text() == "the install's\n"
    assert not list(Path(ws.scratch).parent.glob("layer-*"))  # the layers went with them


def test_a_layer_is_an_overlay_source_above_the_checkout(tmp_path: Path) -> None:
    argv = bwrap.argv("bwrap", ["true"], read_only=[], writable=[], cwd="/",
                      layered=["/co"], layers={"/co": ["/layer"]})
    i = argv.index("--tmp-overlay")
    assert argv[i - 4:i + 2] == ["--overlay-src", "/co", "--overlay-src", "/layer",
                                 "--tmp-overlay", "/co"]
