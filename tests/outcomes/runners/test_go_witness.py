"""Go's witness, run for real: the testing package of every test binary sends what it ran on
the gate's channel, and what the binary printed is held against it."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.go_module import BROKEN, CALC_TEST, FORGE, base, use_go, write
from helpers.runners import run_in

from gate.outcomes.runners import go_witness


@pytest.fixture
def go(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    use_go(tmp_path_factory.getbasetemp() / "go-cache", monkeypatch)


HONEST_TEST = """\
package calc

import (
\t"os"
\t"os/exec"
\t"testing"
)

func TestSubtests(t *testing.T) {
\tt.Run("parallel", func(t *testing.T) { t.Parallel() })
\tt.Run("skipped", func(t *testing.T) { t.Skip("later") })
}

// The crasher idiom: the test runs its own binary again, whose test fails on purpose.
func TestCrasher(t *testing.T) {
\tif os.Getenv("BE_CRASHER") == "1" {
\t\tt.Fatal("the child fails")
\t}
\tcmd := exec.Command(os.Args[0], "-test.run=TestCrasher")
\tcmd.Env = append(os.Environ(), "BE_CRASHER=1")
\tif cmd.Run() == nil {
\t\tt.Fatal("the child should have failed")
\t}
}

func TestSkipped(t *testing.T) { t.Skip("not here") }

func FuzzAdd(f *testing.F) {
\tf.Add(1, 2)
\tf.Fuzz(func(t *testing.T, a, b int) { Add(a, b) })
}
"""
EXAMPLE = """\
package calc_test

import (
\t"fmt"

\t"example.com/calc/calc"
)

func ExampleAdd() {
\tfmt.Println(calc.Add(2, 3))
\t// Output: 5
}
"""
TEST_MAIN = """\
package other

import (
\t"os"
\t"testing"
)

func TestMain(m *testing.M) { os.Exit(m.Run()) }

func TestOther(t *testing.T) {}
"""


# An integration package that leaves before its tests where what it needs is missing.
LEAVES = """\
package integration

import (
\t"fmt"
\t"os"
\t"testing"
)

func TestMain(m *testing.M) {
\tif os.Getenv("DATABASE_URL") == "" {
\t\tfmt.Println("no database: skipped")
\t\tos.Exit(0)
\t}
\tos.Exit(m.Run())
}

func TestQuery(t *testing.T) {}
"""


@pytest.mark.usefixtures("go")
def test_an_honest_module_is_witnessed_as_printed(tmp_path: Path) -> None:
    """Subtests, a test that runs its own binary again, skips, a fuzz target's seeds, an
    example, a TestMain, one that leaves before its tests, a package with no tests: the
    witness says what the binaries printed, and nothing is said against the run."""
    root = write(tmp_path / "m", {**base(), "calc/more_test.go": HONEST_TEST,
                                  "calc/example_test.go": EXAMPLE, "other/other_test.go":
                                  TEST_MAIN, "empty/empty.go": "package empty\n",
                                  "integration/db_test.go": LEAVES})
    run = run_in(root, "go test ./...")
    assert run.passed, run.completed.output
    assert run.counts is not None
    assert (run.counts.evidence, run.counts.unwitnessed) == ((), "")
    assert sorted((c.name, c.outcome) for c in run.counts.cases) == [
        ("ExampleAdd", "passed"), ("FuzzAdd", "passed"), ("TestAdd", "passed"),
        ("TestCrasher", "passed"), ("TestOther", "passed"), ("TestSkipped", "skipped"),
        ("TestSubtests", "passed")]


@pytest.mark.usefixtures("go")
def test_a_binary_that_forges_its_output_is_read_from_its_witness(tmp_path: Path) -> None:
    """A production init runs the test binary again and prints its output with FAIL made
    PASS: the witness saw the rerun, and TestAdd fail."""
    root = write(tmp_path / "m", {**base(), "calc/calc.go": BROKEN, "calc/forge.go": FORGE})
    run = run_in(root, "go test ./...")
    assert "--- PASS: TestAdd" in run.completed.output and run.completed.returncode == 0
    assert not run.passed
    assert run.counts is not None
    assert [(c.name, c.outcome) for c in run.counts.cases] == [("TestAdd", "failed")]
    assert [e.split(":")[0] for e in run.counts.evidence] == [
        "rerun", "status-disagrees", "printed-rewritten", "exit-disagrees"]


@pytest.mark.usefixtures("go")
def test_without_the_witness_the_forged_output_passes(tmp_path: Path) -> None:
    """The twin: a command that sets GOFLAGS itself keeps the witness out; the forged
    output is all there is, and the summary says so."""
    root = write(tmp_path / "m", {**base(), "calc/calc.go": BROKEN, "calc/forge.go": FORGE})
    run = run_in(root, "GOFLAGS=-v go test ./...")
    assert run.passed
    assert run.counts is not None and run.counts.unwitnessed == go_witness.NOTE


SILENCED = FORGE.replace('cmd.Env = append(os.Environ(), "CALC_AGAIN=1")',
                         'cmd.Env = []string{"CALC_AGAIN=1", "HOME=" + os.Getenv("HOME"), '
                         '"GOCACHE=" + os.Getenv("GOCACHE")}')


@pytest.mark.usefixtures("go")
def test_a_rerun_kept_from_the_channel_is_missing(tmp_path: Path) -> None:
    """The forger also runs its child without the gate's variables: no testing of the
    package's binary ran its tests under the witness, which is tampering for `go test`."""
    root = write(tmp_path / "m", {**base(), "calc/calc.go": BROKEN, "calc/forge.go": SILENCED})
    run = run_in(root, "go test ./...")
    assert run.completed.returncode == 0 and not run.passed
    assert run.counts is not None
    assert [e.split(":")[0] for e in run.counts.evidence] == ["missing", "printed-rewritten"]
    assert [(c.name, c.outcome) for c in run.counts.cases] == [
        ("example.com/calc/calc (no test binary ran its tests)", "failed")]


@pytest.mark.usefixtures("go")
def test_an_honest_failure_is_no_tampering(tmp_path: Path) -> None:
    root = write(tmp_path / "m", {**base(), "calc/calc.go": BROKEN,
                                  "calc/panics_test.go": CALC_TEST.replace(
                                      "TestAdd", "TestPanics").replace(
                                      "if got", "panic(1)\n\tif got")})
    run = run_in(root, "go test ./...")
    assert not run.passed and run.counts is not None
    assert run.counts.evidence == ()


def test_only_go_test_itself_must_send() -> None:
    assert go_witness.alone("go test -race ./...")
    assert not go_witness.alone("go test -exec sudo ./...")
    assert not go_witness.alone("go test ./... | tee out")
    assert not go_witness.alone("make test")


def test_only_runs_that_may_build_go_get_the_overlay(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module m\n")
    assert go_witness.wanted(str(tmp_path), "make test")
    assert go_witness.wanted(str(tmp_path / "none"), "cd x && go test ./...")
    assert not go_witness.wanted(str(tmp_path / "none"), "pytest -q tests/go")
