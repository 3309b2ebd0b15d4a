"""What every diff check is given: the two sides of the change, parsed once."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from gate.engine.config import Config
from gate.lang import (
    generated,
    go_packages,
    gomod,
    own_code,
    pytest_config,
    pytest_helpers,
    source,
    testfiles,
)
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
    own_allows: bool = False  # honour the change's own allow comments (`gate hook pre-commit`)
    _blobs: dict[tuple[str, str], bytes | None] = dataclasses.field(default_factory=dict)
    _rules: dict[str, tuple[attributes.Rule, ...]] = dataclasses.field(default_factory=dict)
    _sources: dict[str, Source | None] = dataclasses.field(default_factory=dict)
    _moved: dict[int, moves.Moves] = dataclasses.field(default_factory=dict)
    _helpers: dict[str, pytest_helpers.Helper] | None = None
    _go_helpers: frozenset[str] | None = None
    _go_replaced: frozenset[str] | None = None
    _own: own_code.OwnCode | None = None
    _tracked: list[str] | None = None
    _pytest_configs: dict[str, PytestConfig] = dataclasses.field(default_factory=dict)
    _code_excludes: dict[own_code.Exclude, bool] = dataclasses.field(default_factory=dict)

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
        """The pytest config at `ref`, read once."""
        if ref not in self._pytest_configs:
            self._pytest_configs[ref] = pytest_config.find(lambda paths: self.read(ref, paths))
        return self._pytest_configs[ref]

    def attributes(self, ref: str) -> tuple[attributes.Rule, ...]:
        """The generated and vendored marks of the root .gitattributes at `ref`."""
        if ref not in self._rules:
            self._rules[ref] = attributes.parse(self.text(ref, ".gitattributes") or "")
        return self._rules[ref]

    def is_replacement(self, path: str) -> bool:
        """Under a directory a go.mod `replace` (at base or head) points at: a module copy
        that is the project's own code, whatever its folder is called (`third_party/x`)."""
        if self._go_replaced is None:  # the root go.mod and those the change touched
            mods = {gomod.GO_MOD, *(f.path for f in self.files
                                     if f.path.rsplit("/", 1)[-1] == gomod.GO_MOD)}
            self._go_replaced = frozenset().union(*(
                gomod.replaced({p: self.text(ref, p) for p in mods})
                for ref in (self.base, self.head)))
        return any(path.startswith(d + "/") for d in self._go_replaced)

    def is_generated(self, path: str) -> bool:
        """Generated or vendored, by its path or by the head's .gitattributes (a change there
        that marks more paths is itself a check-config finding)."""
        if self.is_replacement(path):
            return False
        rules = self.attributes(self.head)
        return (generated.is_generated(path)
                or attributes.marked(rules, path, attributes.GENERATED)
                or attributes.marked(rules, path, attributes.VENDORED))

    def tool_excludes(self) -> own_code.OwnCode:
        """What the BASE's tools leave out as someone else's code (`gate.lang.own_code`)."""
        if self._own is None:
            self._own = own_code.read(lambda paths: self.read(self.base, paths),
                                      self._base_files())
        return self._own

    def is_foreign(self, path: str) -> bool:
        """Not the project's own code, so not read for markers or escapes: made by a tool (by
        its path), marked generated or vendored by the head's .gitattributes, or left out by
        the base's linters (`own_code`). A test file is the project's own unless an exclude leaves
        out more than tests with it (many a project does not lint its tests). A module copy a
        go.mod `replace` points at in the repository is the project's own, wherever it lies."""
        if self.is_replacement(path):
            return False
        rules = self.attributes(self.head)
        if (generated.is_built(path) or attributes.marked(rules, path, attributes.GENERATED)
                or attributes.marked(rules, path, attributes.VENDORED)):
            return True
        own = self.tool_excludes()
        if not own.is_foreign(path):
            return False
        hits = own.excluded_by(path)
        return not hits or not self.is_test_file(path) or any(map(self._leaves_out_code, hits))

    def _leaves_out_code(self, rule: own_code.Exclude) -> bool:
        """Whether a base exclude leaves out code that is not tests: a package excluded
        whole (vendored, tests and all), not a project that does not lint its tests."""
        if rule not in self._code_excludes:
            self._code_excludes[rule] = any(
                own_code.is_code(p) and own_code.OwnCode((rule,)).excluded_by(p)
                and not self.is_test_file(p) for p in self._base_files())
        return self._code_excludes[rule]

    def _base_files(self) -> list[str]:
        if self._tracked is None:
            self._tracked = git.ls_files(self.repo, self.base)
        return self._tracked

    def is_vendored(self, path: str) -> bool:
        if self.is_replacement(path):
            return False
        return (generated.is_vendored(path)
                or attributes.marked(self.attributes(self.head), path, attributes.VENDORED))

    def is_test_file(self, path: str) -> bool:
        """Whether `path` holds tests, by the BASE's discovery rules (the head may not widen
        or narrow them to its advantage)."""
        return testfiles.is_test_file(
            path,
            python_files=self.pytest_config(self.base).python_files,
            test_paths=self.config.test_paths,
        ) or (path.endswith(".go") and path in self.go_helpers())

    def go_helpers(self) -> frozenset[str]:
        """The files of the base's Go packages that only tests import
        (`gate.lang.go_packages`): test code, put back by base-tests."""
        if self._go_helpers is None:
            self._go_helpers = go_packages.helpers(
                lambda paths: self.read(self.base, paths), git.ls_files(self.repo, self.base))
        return self._go_helpers

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
