"""A small Go module (standard library only) and the heads that attack it (issue 46), and
the environment its `go` commands run in: the module and build caches in the test's own
directories, no proxy, the local toolchain. Go is a requirement of the suite (.ci/run
installs it): a test that needs it fails where it is missing, never skips."""
from __future__ import annotations

from pathlib import Path

import pytest

GO_MOD = "module example.com/calc\n\ngo 1.19\n"
CALC = "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
BROKEN = CALC.replace("a + b", "a - b")
CALC_TEST = """\
package calc

import "testing"

func TestAdd(t *testing.T) {
\tif got := Add(2, 3); got != 5 {
\t\tt.Fatalf("Add(2, 3) = %d", got)
\t}
}
"""
# The binary forges its own output: a production init runs the test binary again, rewrites
# FAIL to PASS in what it printed, and exits 0.
FORGE = """\
package calc

import (
\t"bytes"
\t"os"
\t"os/exec"
\t"strings"
)

func init() {
\tif !strings.HasSuffix(os.Args[0], ".test") || os.Getenv("CALC_AGAIN") != "" {
\t\treturn
\t}
\tcmd := exec.Command(os.Args[0], os.Args[1:]...)
\tcmd.Env = append(os.Environ(), "CALC_AGAIN=1")
\tout, _ := cmd.CombinedOutput()
\tos.Stdout.Write(bytes.ReplaceAll(out, []byte("FAIL"), []byte("PASS")))
\tos.Exit(0)
}
"""
# A test helper package, which only the tests import.
TESTUTIL = """\
package testutil

import "testing"

// AssertEqual fails the test when got is not want.
func AssertEqual(t *testing.T, got, want int) {
\tt.Helper()
\tif got != want {
\t\tt.Fatalf("got %d, want %d", got, want)
\t}
}
"""
WEAK_TESTUTIL = TESTUTIL.replace("if got != want", "if false && got != want")
HELPED_TEST = """\
package calc

import (
\t"testing"

\t"example.com/calc/internal/testutil"
)

func TestAdd(t *testing.T) {
\ttestutil.AssertEqual(t, Add(2, 3), 5)
}
"""
# Add right only where the program is a test binary.
DETECTS = """\
package calc

import (
\t"os"
\t"strings"
)

// Add adds.
func Add(a, b int) int {
\tif strings.HasSuffix(os.Args[0], ".test") {
\t\treturn a + b
\t}
\treturn a - b
}
"""


def base() -> dict[str, str | None]:
    return {"go.mod": GO_MOD, "calc/calc.go": CALC, "calc/calc_test.go": CALC_TEST}


def helped() -> dict[str, str | None]:
    """The module whose test asserts through `internal/testutil`."""
    return {**base(), "calc/calc_test.go": HELPED_TEST, "internal/testutil/testutil.go": TESTUTIL}


def use_go(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`go` commands with their caches under `cache`, offline, on the local toolchain."""
    monkeypatch.setenv("GOCACHE", str(cache / "go-build"))
    monkeypatch.setenv("GOPATH", str(cache / "go-path"))
    monkeypatch.setenv("GOPROXY", "off")
    monkeypatch.setenv("GOTOOLCHAIN", "local")
    monkeypatch.delenv("GOFLAGS", raising=False)


def write(root: Path, files: dict[str, str | None]) -> Path:
    for name, text in files.items():
        if text is not None:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
    return root


# A dependency the module requires, in the repository (no network), and the head's patched
# copy of it under third_party/ that a go.mod `replace` swaps in.
REQUIRING = GO_MOD + "\nrequire example.com/mathx v1.0.0\n\nreplace example.com/mathx => ./mathx\n"
MATHX = ("package mathx\n\n// Equal says whether a is b.\n"
         "func Equal(a, b int) bool {\n\treturn a == b\n}\n")
EQUAL_TEST = """\
package calc

import (
\t"testing"

\t"example.com/mathx"
)

func TestAdd(t *testing.T) {
\tif !mathx.Equal(Add(2, 3), 5) {
\t\tt.Fatal("Add(2, 3) is not 5")
\t}
}
"""


def requiring() -> dict[str, str | None]:
    """The module whose test compares through its dependency mathx."""
    return {**base(), "go.mod": REQUIRING, "calc/calc_test.go": EQUAL_TEST,
            "mathx/go.mod": "module example.com/mathx\n\ngo 1.19\n", "mathx/mathx.go": MATHX}


def patched_dependency() -> dict[str, str | None]:
    """The head: Add broken, and mathx replaced by a copy whose Equal says yes to all."""
    return {"calc/calc.go": BROKEN,
            "go.mod": REQUIRING.replace("=> ./mathx", "=> ./third_party/mathx"),
            "third_party/mathx/go.mod": "module example.com/mathx\n\ngo 1.19\n",
            "third_party/mathx/mathx.go": MATHX.replace("a == b", "true || a == b")}
