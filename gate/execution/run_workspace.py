"""Where a judged command runs: a fresh checkout, a private scratch directory, the clean
environment with the fresh virtual environment first on PATH, the time limit, and how the
command is started (the isolation boundary, the overlays of a sealed run, the conditions of
the varied run). A value: the checks and trials pass it around, `execution/` acts on it."""
from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Sequence

from gate.execution import isolation
from gate.execution.conditions import USUAL, Conditions
from gate.execution.logs import Logs


@dataclasses.dataclass(frozen=True)
class Workspace:
    """Where runtime checks run: a fresh checkout of the head, and a private scratch dir."""

    checkout: str
    scratch: str  # outside the checkout: reports, temporary configs
    env: dict[str, str]  # clean, with the fresh virtual environment first on PATH
    timeout: float
    test_prefix: tuple[str, ...] = ()  # argv the test commands run under (no network)
    logs: Logs | None = None  # where each command's full output goes (`gate run --logs`)
    boundary: isolation.Boundary = isolation.OFF  # what each judged command starts in
    home: str = ""  # the run's own HOME inside the boundary ("" without one)
    caches: tuple[str, ...] = ()  # the installers' caches: only a trusted install writes them
    tools: tuple[str, ...] = ()  # the toolchains' homes (CARGO_HOME...): never written through
    # After the install: each later command sees the checkout, the environment, the home and
    # the caches through an overlay of its own, so that no trial starts from what an earlier
    # judged command wrote there (where overlays work; else they stay writable).
    sealed: bool = False
    # Whether its install may write the installers' caches: an install of the base (trusted
    # code, the mainline) warms them; the head's sees them through an overlay, so that nothing
    # it plants there reaches the base's install, a later run or a later CI step.
    warms_caches: bool = False
    # Sealed, with overlays: directories seen above the checkout in each command's overlay
    # (a trial's own files, `gate/trials/layer.py`), the last on top.
    layers: tuple[str, ...] = ()
    # The conditions its commands run under: the usual ones, or another clock, host name,
    # files' age, memory limit (the suite's varied run, `gate/execution/conditions.py`).
    conditions: Conditions = USUAL

    def log(self, name: str) -> str | None:
        """A new log file for the command called `name`, or None without --logs."""
        return self.logs.path(name) if self.logs is not None else None

    def root(self) -> str:
        """The run's root (or the base's, for the base's commands): the directory that holds
        the scratch directory, and the checkout, HOME and temporary directories."""
        return os.path.dirname(self.scratch)

    def seen_whole(self) -> bool:
        """Whether a command after the install sees the run's root through one overlay of its
        own, the checkout, HOME and TMPDIR in it: sealed, with overlays, all three inside the
        root. One file system, as on a CI runner, so that a test may rename a file from the
        checkout into its temporary directory (sloria/environs moves its .env to `tmp_path`:
        across an overlay of the checkout and a tmpfs of TMPDIR that was EXDEV, "Invalid
        cross-device link", a false failure on every commit)."""
        inside = os.path.join(self.root(), "")
        return self.sealed and self.boundary.overlays and all(
            p and os.path.join(p, "").startswith(inside)
            for p in (self.checkout, self.home, self.env.get("TMPDIR", "")))

    def wrap(self, argv: Sequence[str], cwd: str) -> list[str]:
        """A command of the judged code as it is started: in the run's isolation boundary."""
        venv = self.env.get("VIRTUAL_ENV", "")
        mine = [self.checkout, venv, self.home]
        warmed = self.caches if self.warms_caches else ()
        root, tmp = self.root(), self.env.get("TMPDIR", os.path.join(self.scratch, "tmp"))
        fixed = self.scratch_files() if self.boundary.bwrap else []
        layers = {self.checkout: self.layers} if self.layers else None
        if not self.boundary.overlays:  # later commands share what earlier ones wrote
            own, layered = [self.scratch, *mine, *warmed], []
        elif self.seen_whole():  # the root through one overlay: TMPDIR is in it, no tmpfs
            own, layered = [self.scratch], [root, venv, *self.tools, *self.caches]
            fixed.append(os.path.join(self.checkout, ".git"))
            layers, tmp = ({root: self.layers} if self.layers else None), ""
        elif self.sealed:
            own, layered = [self.scratch], [*mine, *self.tools, *self.caches]
        else:
            unwarmed = () if self.warms_caches else self.caches
            own, layered = [self.scratch, *mine, *warmed], [*self.tools, *unwarmed]
        return self.boundary.wrap(argv, root=root, cwd=cwd, tmp=tmp, own=own, layered=layered,
                                  env=self.env, fixed=fixed, layers=layers,
                                  under=self.conditions)

    def scratch_files(self) -> list[str]:
        """The files already in the scratch directory: earlier commands' reports, the gate's
        own inputs (a shard's split). A command may write its own report there (removed before
        it starts), not these."""
        try:  # and the FIFOs: the evidence channel a command writes to, not replaces
            return [e.path for e in os.scandir(self.scratch) if e.is_file(follow_symlinks=False)
                    or stat.S_ISFIFO(e.stat(follow_symlinks=False).st_mode)]
        except OSError:
            return []

    def wrap_tests(self, argv: Sequence[str], cwd: str) -> list[str]:
        """A test command: the boundary, inside the network switch (`network = "off"`), which
        must be set up before the boundary drops every capability."""
        return [*self.test_prefix, *self.wrap(argv, cwd)]
