"""go.mod as configuration (rule `go-mod`): its directives compared as parsed data."""
from __future__ import annotations

from pathlib import Path

from helpers.configcheck import found

MOD = """\
module example.com/calc

go 1.19

require example.com/mathx v1.0.0

replace example.com/mathx => ./mathx
"""


def test_a_replace_pointed_elsewhere_is_flagged(tmp_path: Path) -> None:
    head = MOD.replace("=> ./mathx", "=> ./third_party/mathx")
    assert found(tmp_path, {"go.mod": MOD}, {"go.mod": head}) == [
        (7, "go-mod", "go.mod replace `example.com/mathx => ./third_party/mathx` added: "
                      "`go test` builds this copy in place of the module go.mod requires; "
                      "check it is not a stand-in for a dependency")]


def test_replace_and_exclude_in_blocks_toolchain_go_and_godebug_are_flagged(
        tmp_path: Path) -> None:
    head = MOD.replace("go 1.19\n", "go 1.21\n\ntoolchain go1.21.5\n\ngodebug panicnil=1\n") + (
        "\nreplace (\n\texample.com/other v1.0.0 => ../other\n)\n"
        "\nexclude (\n\texample.com/mathx v1.0.1\n)\n")
    assert [(line, message.split(":")[0]) for line, _, message in
            found(tmp_path, {"go.mod": MOD}, {"go.mod": head})] == [
        (3, "go.mod go `1.21` added"), (5, "go.mod toolchain `go1.21.5` added"),
        (7, "go.mod godebug `panicnil=1` added"),
        (14, "go.mod replace `example.com/other v1.0.0 => ../other` added"),
        (18, "go.mod exclude `example.com/mathx v1.0.1` added")]


def test_a_toolchain_removed_is_flagged(tmp_path: Path) -> None:
    base = MOD + "\ntoolchain go1.21.5\n"
    assert [(line, rule) for line, rule, _ in found(
        tmp_path, {"go.mod": base, "a.go": "package calc\n"},
        {"go.mod": MOD, "a.go": "package calc\n\n// A.\n"})] == [(1, "go-mod")]


def test_a_require_bumped_a_replace_removed_or_reformatted_is_not(tmp_path: Path) -> None:
    head = (MOD.replace("v1.0.0", "v1.1.0").replace("replace example.com/mathx => ./mathx",
                                                   "replace (\n\texample.com/mathx  =>  ./mathx"
                                                   "  // local\n)"))
    assert found(tmp_path, {"go.mod": MOD}, {"go.mod": head}) == []
    assert found(tmp_path / "removed", {"go.mod": MOD},
                 {"go.mod": MOD.split("\nreplace")[0] + "\n"}) == []
