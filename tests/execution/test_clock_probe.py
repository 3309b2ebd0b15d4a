"""Whether the varied run's clock lets the toolchains start (gate/execution/clock_probe.py):
rustc and rustdoc link jemalloc, which deadlocks under libfaketime before `main` (issue 46:
every Rust project with doctests timed out in the varied run); the varied run then keeps the
real clock and says why."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from gate.execution import clock_probe, conditions

# gate: allow skip-markers -- libfaketime ships for x86-64 Linux only, and says so
needs_clock = pytest.mark.skipif(conditions.faketime_library() is None,
                                 reason="libfaketime cannot run here (x86-64 Linux only)")


# the variables that move the varied run's clock, as it moves it
CLOCK = conditions.clock_env(conditions.Conditions(clock_days=365))


def _env_of(tmp_path: Path, *tools: str) -> dict[str, str]:
    """This environment with a PATH of one directory holding links to the real `tools` (a
    rustup proxy answers by the name it is called by, so the link keeps the name)."""
    where = tmp_path / "bin"
    where.mkdir()
    for tool in tools:
        found = shutil.which(tool)
        assert found, f"{tool} is on this machine's image (the Rust tests use it)"
        (where / tool).symlink_to(found)
    return {**os.environ, "PATH": str(where)}


@needs_clock
@pytest.mark.usefixtures("cargo_env")
def test_rustc_and_rustdoc_hang_under_the_moved_clock_and_are_named(tmp_path: Path) -> None:
    env = _env_of(tmp_path, "rustc", "rustdoc", "cargo")
    (tmp_path / "crate").mkdir()
    (tmp_path / "crate" / "Cargo.toml").write_text("")
    assert clock_probe.hung_tools(env, CLOCK, str(tmp_path / "crate")) == (
        "rustc", "rustdoc")


@needs_clock
@pytest.mark.usefixtures("cargo_env")
def test_only_the_projects_own_toolchains_are_asked(tmp_path: Path) -> None:
    """A Python project's varied run does not wait on the rustc on PATH (every Python run
    on a machine with Rust waited 10 s before)."""
    env = _env_of(tmp_path, "rustc", "rustdoc")
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "pyproject.toml").write_text("")
    assert clock_probe.hung_tools(env, CLOCK, str(tmp_path / "project")) == ()


@needs_clock
def test_a_toolchain_that_starts_under_the_clock_is_not_named(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": str(tmp_path / "bin")}
    (tmp_path / "setup.py").write_text("")
    assert clock_probe.hung_tools(env, CLOCK, str(tmp_path)) == ()


@needs_clock
@pytest.mark.usefixtures("cargo_env")
def test_the_varied_run_keeps_the_real_clock_where_a_toolchain_hangs(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text("")
    rust = conditions.possible(isolated=True, overlays=True,
                               env=_env_of(tmp_path, "rustc", "cargo"), checkout=str(tmp_path))
    assert (rust.clock_days, rust.files_days, rust.unlimited) == (0, 30, False)
    assert rust.unmoved == "rustc hung at the start under libfaketime"
    python = conditions.possible(isolated=True, overlays=True,
                                 env={**os.environ, "PATH": os.path.dirname(sys.executable)},
                                 checkout=str(tmp_path))
    assert (python.clock_days, python.unmoved) == (365, "")
