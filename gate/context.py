"""What every diff check is given: the two sides of the change, parsed once."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from gate import git, pytest_config, testfiles
from gate.config import Config
from gate.diff import ChangedFile
from gate.pytest_config import PytestConfig


@dataclasses.dataclass
class DiffContext:
    repo: str
    base: str  # the old side: the merge-base of the base ref and the head
    head: str  # the new side: a commit SHA
    config: Config
    files: list[ChangedFile]
    _blobs: dict[tuple[str, str], bytes | None] = dataclasses.field(default_factory=dict)

    def read(self, ref: str, paths: Sequence[str]) -> dict[str, bytes | None]:
        """File contents at `ref` (None where absent); each blob is read from git once."""
        missing = [p for p in paths if (ref, p) not in self._blobs]
        for path, blob in git.read_blobs(self.repo, ref, missing).items():
            self._blobs[(ref, path)] = blob
        return {p: self._blobs[(ref, p)] for p in paths}

    def text(self, ref: str, path: str) -> str | None:
        blob = self.read(ref, [path])[path]
        return None if blob is None else blob.decode("utf-8", "replace")

    def pytest_config(self, ref: str) -> PytestConfig:
        return pytest_config.find(lambda paths: self.read(ref, paths))

    def is_test_file(self, path: str) -> bool:
        """Whether `path` holds tests, by the BASE's discovery rules (the head may not widen
        or narrow them to its advantage)."""
        return testfiles.is_test_file(
            path,
            python_files=self.pytest_config(self.base).python_files,
            test_paths=self.config.test_paths,
        )


@dataclasses.dataclass(frozen=True)
class Workspace:
    """Where runtime checks run: a fresh checkout of the head, and a private scratch dir."""

    checkout: str
    scratch: str  # outside the checkout: reports, temporary configs
    env: dict[str, str]  # clean, with the fresh virtual environment first on PATH
    timeout: float
