"""base-tests split by test file across the cores, each part over a layer of its own in the
sealed boundary: the verdict is the unsplit run's, whether the base's tests pass or not (real
git, real pytest, real bubblewrap)."""
from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks import base_tests
from gate.engine import config
from gate.engine.context import DiffContext
from gate.execution import isolation, workspace
from gate.execution import logs as Logs
from gate.execution.environment import clean_env
from gate.execution.run_workspace import Workspace
from gate.vcs import diff

pytestmark = pytest.mark.slow

BASE = {"calc.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
        **{f"tests/test_{n}.py": f"from calc import add, mul\n\n\ndef test_{n}():\n"
                                 f"    assert {check}\n"
           for n, check in (("add", "add(2, 3) == 5"), ("mul", "mul(2, 3) == 6"),
                            ("both", "add(1, 1) == mul(1, 2)"))}}
# The head rewrites mul and edits its test to fit: the base's test_mul fails on it.
HIDDEN = {"calc.py": BASE["calc.py"].replace("a * b", "a + b"),
          "tests/test_mul.py": "from calc import mul\n\n\ndef test_mul():\n"
                               "    assert mul(2, 3) == 5\n"}
# The head refactors add and adds a test beside: every base test still passes.
HONEST = {"calc.py": BASE["calc.py"].replace("return a + b", "return sum((a, b))"),
          "tests/test_more.py": "from calc import add\n\n\ndef test_more():\n"
                                "    assert add(0, 0) == 0\n"}


def _judged(tmp_path: Path, head: dict[str, str | None], at_once: int,
            ) -> tuple[tuple[object, ...], list[str]]:
    """base-tests' result (all but its duration) with `at_once` parts, and the logs of the
    trials that ran."""
    boundary = isolation.choose("auto")
    if boundary.bwrap is None or not boundary.overlays:
        pytest.fail("this machine gives no bubblewrap with overlays: the test needs them")
    repo, base_sha, head_sha = make_change(tmp_path / "r", BASE, head)
    ctx = DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                      diff.changed_files(str(repo.path), base_sha, head_sha))
    root = tmp_path / "root"
    scratch = root / "scratch"
    scratch.mkdir(parents=True)
    checkout = workspace.checkout(str(repo.path), head_sha, str(root / "checkout"))
    logs = root / "logs"
    ws = Workspace(checkout, str(scratch), {**clean_env(), "PYTHONPATH": "."}, 120,
                   logs=Logs.prepare(str(logs)), boundary=boundary, sealed=True)
    done = base_tests.run(ctx, ws, f"{sys.executable} -m pytest -q", at_once=at_once)
    shown = dataclasses.replace(done, duration_s=0.0)
    return ((shown.status, shown.summary, shown.findings),
            sorted(p.split("-", 1)[1] for p in os.listdir(logs)))


@pytest.mark.parametrize("head", [HIDDEN, HONEST], ids=["hidden-regression", "honest"])
def test_the_verdict_is_the_same_split_and_unsplit(tmp_path: Path,
                                                   head: dict[str, str | None]) -> None:
    unsplit, ran_unsplit = _judged(tmp_path / "one", head, 1)
    split, ran_split = _judged(tmp_path / "two", head, 2)
    assert split == unsplit
    assert ran_unsplit == ["base-tests.log"]
    if head is HONEST:  # the parts passed: they decided
        assert unsplit[0] == "passed"
        assert ran_split == ["base-tests-part-1.log", "base-tests-part-2.log"]
    else:  # a part failed: the whole unsplit run decided
        assert unsplit[0] == "failed"
        assert "tests/test_mul.py::test_mul" in str(unsplit[2])
        assert ran_split == ["base-tests-part-1.log", "base-tests-part-2.log",
                             "base-tests.log"]
