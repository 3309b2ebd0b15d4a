"""What every diff check is given: the two sides of the change, parsed once."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from gate.engine.config import Config
from gate.execution import isolation
from gate.execution.logs import Logs
from gate.lang import generated, pytest_config, pytest_helpers, source, testfiles
from gate.lang.lines import Source
from gate.lang.pytest_config import PytestConfig
from gate.vcs import attributes, git, moves
from gate.vcs.diff import ChangedFile


@dataclasses.dataclass
class DiffContext:
    repo: str
    base: str  # the old side: the merge-base of the base ref and the head
    head: str  # the new side: a commit SHA, or "" for the index (`gate scan --staged`)
    config: Config
    files: list[ChangedFile]
    upgrades: tuple[str, ...] = ()  # `--upgrade NAME==VERSION`: what the change must upgrade
    _blobs: dict[tuple[str, str], bytes | None] = dataclasses.field(default_factory=dict)
    _rules: dict[str, tuple[attributes.Rule, ...]] = dataclasses.field(default_factory=dict)
    _sources: dict[str, Source | None] = dataclasses.field(default_factory=dict)
    _moved: dict[int, moves.Moves] = dataclasses.field(default_factory=dict)
    _helpers: dict[str, pytest_helpers.Helper] | None = None

    def read(self, ref: str, paths: Sequence[str]) -> dict[str, bytes | None]:
        """File contents at `ref` (None where absent); each blob is read from git once."""
        missing = [p for p in paths if (ref, p) not in self._blobs]
        for path, blob in git.read_blobs(self.repo, ref, missing).items():
            self._blobs[(ref, path)] = blob
        return {p: self._blobs[(ref, p)] for p in paths}

    def text(self, ref: str, path: str) -> str | None:
        blob = self.read(ref, [path])[path]
        return None if blob is None else blob.decode("utf-8", "replace")

    def source(self, path: str) -> Source | None:
        """The head's `path` as lines of code and comments, parsed once for every check; None
        for a language the gate does not read or a file absent at head."""
        if path not in self._sources:
            text = self.text(self.head, path)
            self._sources[path] = None if text is None else source.split(path, text)
        return self._sources[path]

    def moves(self, context: int = 0) -> moves.Moves:
        """The lines the change moved (`gate.vcs.moves`), found once per context."""
        if context not in self._moved:
            self._moved[context] = moves.moved(self.files, context)
        return self._moved[context]

    def fresh_lines(self, f: ChangedFile, context: int = 0) -> dict[int, str]:
        """The file's new lines that the change did not move from elsewhere: with `context`, a
        line is moved only with the lines after it."""
        taken = self.moves(context).head.get(f.path, frozenset())
        return {n: text for n, text in f.new_lines.items() if n not in taken}

    def unmoved_removed(self, f: ChangedFile) -> dict[int, str]:
        """The file's removed lines that did not move elsewhere in the change."""
        gone = self.moves().base.get(f.path, frozenset())
        return {n: text for n, text in f.removed.items() if n not in gone}

    def pytest_config(self, ref: str) -> PytestConfig:
        return pytest_config.find(lambda paths: self.read(ref, paths))

    def attributes(self, ref: str) -> tuple[attributes.Rule, ...]:
        """The generated and vendored marks of the root .gitattributes at `ref`."""
        if ref not in self._rules:
            self._rules[ref] = attributes.parse(self.text(ref, ".gitattributes") or "")
        return self._rules[ref]

    def is_generated(self, path: str) -> bool:
        """Generated or vendored, by its path or by the head's .gitattributes (a change there
        that marks more paths is itself a check-config finding)."""
        rules = self.attributes(self.head)
        return (generated.is_generated(path)
                or attributes.marked(rules, path, attributes.GENERATED)
                or attributes.marked(rules, path, attributes.VENDORED))

    def is_vendored(self, path: str) -> bool:
        return (generated.is_vendored(path)
                or attributes.marked(self.attributes(self.head), path, attributes.VENDORED))

    def is_test_file(self, path: str) -> bool:
        """Whether `path` holds tests, by the BASE's discovery rules (the head may not widen
        or narrow them to its advantage)."""
        return testfiles.is_test_file(
            path,
            python_files=self.pytest_config(self.base).python_files,
            test_paths=self.config.test_paths,
        )

    def test_helpers(self) -> dict[str, pytest_helpers.Helper]:
        """The package's own test helpers (`gate.lang.pytest_helpers`), by the BASE's files:
        a head cannot add a module of its code to them to have it judged as tests."""
        if self._helpers is None:
            cfg = self.pytest_config(self.base)
            self._helpers = pytest_helpers.find(
                lambda paths: self.read(self.base, paths), git.ls_files(self.repo, self.base),
                cfg.python_files, cfg.options.get("addopts", ""))
        return self._helpers

    def is_test_helper(self, path: str) -> bool:
        """A module of the package the base's tests load as a plugin or take fixtures from."""
        return (path.endswith(".py") and testfiles.test_tree(path) is None
                and path in self.test_helpers())

    def is_test_code(self, path: str) -> bool:
        """A test file or a test helper of the package: a change to either is a change to the
        tests."""
        return self.is_test_file(path) or self.is_test_helper(path)


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
                                  env=self.env, fixed=fixed, layers=layers)

    def scratch_files(self) -> list[str]:
        """The files already in the scratch directory: earlier commands' reports, the gate's
        own inputs (a shard's split). A command may write its own report there (removed before
        it starts), not these."""
        try:
            return [e.path for e in os.scandir(self.scratch) if e.is_file(follow_symlinks=False)]
        except OSError:
            return []

    def wrap_tests(self, argv: Sequence[str], cwd: str) -> list[str]:
        """A test command: the boundary, inside the network switch (`network = "off"`), which
        must be set up before the boundary drops every capability."""
        return [*self.test_prefix, *self.wrap(argv, cwd)]
