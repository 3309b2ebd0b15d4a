"""The varied run on a real cargo crate with a doctest (issue 46): rustc and rustdoc deadlock
under libfaketime at their start, so the varied run keeps the real clock, says why, and an
honest change passes 3 of 3 (before: "2 of 3 runs passed ... run 3 (with the clock 365 days
ahead ...): timed out", every Rust change a fail after the whole limit)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate import cli
from gate.execution import conditions

pytestmark = pytest.mark.slow

CARGO_TOML = '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n'
LIB = """\
/// Adds two numbers.
///
/// ```
/// assert_eq!(adder::add(2, 3), 5);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(1, 1), 2);
    }
}
"""


# gate: allow skip-markers -- libfaketime ships for x86-64 Linux only, and says so
@pytest.mark.skipif(conditions.faketime_library() is None,
                    reason="libfaketime cannot run here (x86-64 Linux only)")
@pytest.mark.usefixtures("cargo_env")
def test_an_honest_change_to_a_crate_with_doctests_passes_every_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", {
        "Cargo.toml": CARGO_TOML, "src/lib.rs": LIB, ".gitignore": "target/\n",
        "README.md": "adder\n"}, {"README.md": "adder: adds\n"})
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--format", "json", "--test", "cargo test --offline --no-fail-fast",
                     "--pinned", "off", "--timeout", "600"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    suite = next(c for c in report["checks"] if c["id"] == "suite")
    assert (report["verdict"], code) == ("pass", 0), suite
    assert suite["summary"].startswith("3 of 3 runs passed, 2/2 tests"), suite["summary"]
    assert ("the varied run's clock was not moved: rustc, rustdoc hung at the start under "
            "libfaketime") in suite["summary"]
