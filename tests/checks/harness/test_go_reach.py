"""Go production code that tells a test run apart: `test-run-detected` on the lines added."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change
from helpers.go_module import base

from gate.checks.harness import check as harness
from gate.checks.harness import go_reach
from gate.engine import config
from gate.engine.context import DiffContext
from gate.vcs import diff


def scan(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines()
    return [(line, message.split(":")[0]) for line, _, message in
            go_reach.scan(text, {n: t for n, t in enumerate(lines, 1)})]


HEAD = "package calc\n\nimport (\n{imports}\n)\n\nfunc Add(a, b int) int {{\n{body}\n}}\n"


def code(imports: str, body: str) -> str:
    return HEAD.format(imports=imports, body=body)


def test_the_program_name_held_against_a_test_binarys() -> None:
    assert scan(code('\t"os"\n\t"strings"', '\tif strings.HasSuffix(os.Args[0], ".test") {\n'
                     '\t\treturn a + b\n\t}\n\treturn a - b')) == [
        (9, "holds the program's own name against a test binary's")]


def test_through_a_variable_a_switch_and_an_aliased_import() -> None:
    body = ('\texe, _ := o.Executable()\n\tname := filepath.Base(exe)\n'
            '\tswitch filepath.Ext(name) {\n\tcase ".test":\n\t\treturn a + b\n\t}\n'
            '\treturn a - b')
    assert scan(code('\to "os"\n\t"path/filepath"', body)) == [
        (11, "holds the program's own name against a test binary's")]


def test_testing_testing_a_test_flag_and_a_rerun() -> None:
    body = ('\tif testing.Testing() {\n\t\treturn a + b\n\t}\n'
            '\tif flag.CommandLine.Lookup("test.v") != nil {\n\t\treturn a + b\n\t}\n'
            '\t_ = exec.Command(os.Args[0], "-test.run=.").Run()\n\treturn a - b')
    assert scan(code('\t"flag"\n\t"os"\n\t"os/exec"\n\t"testing"', body)) == [
        (11, "calls testing.Testing()"), (14, 'looks up the test flag "test.v"'),
        (17, "runs its own binary again")]


def test_honest_uses_of_the_program_name_are_not() -> None:
    """A usage line, a multi-call binary's dispatch, a subcommand named test, a test string."""
    body = ('\tfmt.Fprintf(os.Stderr, "usage: %s test FILE\\n", os.Args[0])\n'
            '\tswitch filepath.Base(os.Args[0]) {\n\tcase "calc", "add":\n\t}\n'
            '\tif len(os.Args) > 1 && os.Args[1] == "test" {\n\t\treturn 0\n\t}\n'
            '\tif strings.Contains(os.Getenv("MODE"), "test") {\n\t}\n\treturn a + b')
    assert scan(code('\t"fmt"\n\t"os"\n\t"path/filepath"\n\t"strings"', body)) == []


DETECTS = code('\t"os"\n\t"strings"', '\tif strings.HasSuffix(os.Args[0], ".test") {\n'
               '\t\treturn a + b\n\t}\n\treturn a - b')


def test_harness_flags_it_in_production_code_only(tmp_path: Path) -> None:
    """`Add` right only when the program is a test binary: flagged at its line; the same
    lines in a test file are base-tests' to judge."""
    repo, base_sha, head_sha = make_change(tmp_path / "r", base(), {
        "calc/calc.go": DETECTS, "calc/more_test.go": DETECTS.replace("Add", "add2")})
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    assert [(f.path, f.line, f.rule) for f in harness.run(ctx).findings] == [
        ("calc/calc.go", 9, "test-run-detected")]


def test_the_gates_variables_and_a_link_into_testing() -> None:
    """A forger of the witness's lines needs its channel; one that reaches into testing's
    unexported state needs a linkname."""
    body = ('\tf, _ := os.OpenFile(os.Getenv("GATE_EVIDENCE"), os.O_WRONLY, 0)\n'
            '\t_ = f\n\treturn a + b')
    text = code('\t"os"\n\t_ "unsafe"', body) + (
        "\n//go:linkname witness testing.gateWitnessOut\nvar witness *os.File\n")
    assert [(line, rule) for line, rule, _ in go_reach.scan(
        text, dict(enumerate(text.splitlines(), 1)))] == [
        (9, "test-run-detected"), (14, "framework-internals")]
