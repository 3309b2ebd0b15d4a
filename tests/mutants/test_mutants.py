"""The mutation engine on real source text: one mutant per line, the first kind that applies,
lines with nothing to test left out, in Python, JavaScript/TypeScript, Go and Rust."""
from __future__ import annotations

import pytest

from gate.mutants import apply, lines
from gate.mutants.lines import Changed


def shown(path: str, text: str) -> dict[int, str]:
    data = text.encode()
    return {n: m.shown for n, m in apply.per_line(path, data, range(1, 100)).items()}


PYTHON = '''\
"""A module."""
import logging

log = logging.getLogger(__name__)


def mul(a: int, b: int) -> int:
    """Multiply."""
    log.info("mul %d", a + b)
    print(a - b)
    if (a, b) == (2, 3):
        return 6
    total: int = a * b
    total += 1 if a < b else 0
    return total and True


def go(x):
    x.run()
    return x is None or not x.ok
'''


def test_python_one_mutant_per_line_and_nothing_for_docs_imports_logging_types() -> None:
    assert shown("m.py", PYTHON) == {
        11: "`if (a, b) == (2, 3)` → `if True`",
        12: "`6` → `7`",
        13: "`a * b` → `a / b`",
        14: "`a < b` → `a <= b`",
        15: "`total and True` → `total or True`",
        19: "`x.run()` → `pass`",
        20: "`x is None` → `x is not None`",
    }  # none on the docstrings, the import, the logger, the signature, log.info and print


def test_python_every_mutant_still_compiles_and_changes_one_span() -> None:
    data = PYTHON.encode()
    for mutant in apply.per_line("m.py", data, range(1, 100)).values():
        mutated = mutant.applied(data)
        compile(mutated, "m.py", "exec")
        assert mutated != data
        assert mutated.count(b"\n") == data.count(b"\n") or mutant.kind == "statement"


TYPESCRIPT = '''\
import { x } from "./x";
type Pair = [number, number];
interface P { a: number }

export function mul(a: number, b: number): number {
  console.log(a + b);
  if (a === 2 && b === 3) {
    return 6;
  }
  g(a);
  const ok = a > b || false;
  return a * b;
}
'''


def test_typescript_mutants_and_what_is_left_out() -> None:
    assert shown("m.ts", TYPESCRIPT) == {
        7: "`if a === 2 && b === 3` → `if true`",
        8: "`6` → `7`",
        10: "`g(a);` → `;`",
        11: "`a > b` → `a >= b`",
        12: "`a * b` → `a / b`",
    }


def test_javascript_reads_like_typescript() -> None:
    js = ("function f(a, b) {\n  return a - b;\n}\nconst n = a !== b;\n"
          "function g(a) {\n  return h(a);\n}\n")
    assert shown("m.js", js) == {2: "`a - b` → `a + b`", 4: "`a !== b` → `a === b`",
                                 6: "`return h(a);` → `return undefined`"}


GO = '''\
package calc

import "fmt"

func Mul(a, b int) int {
	fmt.Println(a + b)
	if a == 2 && b == 3 {
		return 6
	}
	ok := a <= b || false
	_ = ok
	return a * b
}
'''


def test_go_mutants_and_what_is_left_out() -> None:
    assert shown("calc.go", GO) == {
        7: "`if a == 2 && b == 3` → `if true`",
        8: "`6` → `7`",
        10: "`a <= b` → `a < b`",
        12: "`a * b` → `a / b`",
    }


RUST = '''\
use std::fmt;

pub fn mul(a: i64, b: i64) -> i64 {
    println!("{}", a + b);
    if a == 2 && b == 3 {
        return 6;
    }
    record(a);
    let ok: bool = a >= b || false;
    a * b
}
'''


def test_rust_mutants_and_what_is_left_out() -> None:
    assert shown("src/lib.rs", RUST) == {
        5: "`if a == 2 && b == 3` → `if true`",
        6: "`6` → `7`",
        8: "`record(a);` → `;`",
        9: "`a >= b` → `a > b`",
        10: "`a * b` → `a / b`",
    }


def test_a_file_that_does_not_parse_has_no_mutants() -> None:
    assert shown("m.py", "def f(:\n    return 1 + 2\n") == {}
    assert shown("m.go", "package m\nfunc F( {\n\treturn 1 + 2\n}\n") == {}


def test_other_languages_get_none() -> None:
    assert not apply.mutable("a.java") and not apply.mutable("stubs.pyi")
    assert apply.mutable("a.tsx") and apply.mutable("a.rs")


def test_lines_are_taken_file_by_file_in_turn_within_the_budget() -> None:
    a = Changed("b.py", b"x = 1\ny = 2\nz = 3\n", {1, 2, 3})
    b = Changed("a.py", b"import os\nw = 4\n", {1, 2})
    chosen = lines.choose([a, b], 3)
    assert [(m.path, m.line) for m in chosen.mutants] == [("a.py", 2), ("b.py", 1),
                                                          ("b.py", 2)]
    assert (chosen.lines, chosen.nothing_to_test, chosen.over_budget) == (5, 1, 1)


@pytest.mark.parametrize(("path", "text"), [
    ("m.py", "def f(a):\n    return a + 1\n"),
    ("m.ts", "export const f = (a: number) => a + 1;\n"),
    ("m.go", "package m\n\nfunc F(a int) int { return a + 1 }\n"),
    ("m.rs", "pub fn f(a: u8) -> u8 { a + 1 }\n"),
])
def test_each_language_mutates_an_addition(path: str, text: str) -> None:
    assert "`a + 1` → `a - 1`" in shown(path, text).values()


def test_python_a_count_whose_first_item_is_taken_is_no_mutant() -> None:
    """`most_common(1)[0]` and `split(",", 1)[0]` give the same first item for any count
    (mahmoud/boltons 967864f: an equivalent mutant reported as a survivor); elsewhere the
    count is mutated."""
    text = ("def f(c, s):\n    a = c.most_common(1)[0][0]\n    b = s.split(',', 1)[0]\n"
            "    d = s.split(',', maxsplit=1)[0]\n    e = c.most_common(1)\n"
            "    g = s.split(',', 1)[1]\n    return a, b, d, e, g\n")
    from gate.mutants import python_mutants
    counts = sorted((m.line, m.shown) for m in python_mutants.candidates("m.py", text.encode())
                    if m.kind == "constant")
    assert counts == [(2, "`0` → `1`"), (2, "`0` → `1`"), (3, "`0` → `1`"), (4, "`0` → `1`"),
                      (5, "`1` → `2`"), (6, "`1` → `2`"), (6, "`1` → `2`")]


def test_python_an_if_that_asks_which_python_or_platform_is_no_mutant() -> None:
    """agronholm/exceptiongroup 2a84dfd: `if sys.version_info < (3, 13):` → `if True` is the
    same program on the gate's Python 3.11, a survivor no test can kill. Its body, and an
    `if` that asks anything else, are still mutated."""
    text = ("import sys\n\nif sys.version_info < (3, 13):\n    LIMIT = 3\n"
            "if sys.platform == 'win32' or os.name == 'nt':\n    SEP = 1\n"
            "if TYPE_CHECKING:\n    pass\n"
            "def f(x):\n    if x > 2:\n        return x\n"
            "    return 1 if platform.system() == 'Linux' else 2\n")
    assert shown("m.py", text) == {4: "`3` → `4`", 6: "`1` → `2`",
                                   10: "`if x > 2` → `if True`",
                                   11: "`return x` → `return None`", 12: "`1` → `2`"}


def test_a_special_case_s_mutant_deletes_its_branch_in_every_language() -> None:
    python = b"def f(a, b):\n    if (a, b) == (2, 3):\n        return 6\n    return a + b\n"
    js = b"function f(a, b) {\n  if (a === 2 && b === 3) {\n    return 6;\n  }\n}\n"
    found = [apply.branch_deleted("m.py", python, 2), apply.branch_deleted("m.js", js, 2)]
    assert [(m.shown, m.applied(text).splitlines()[1]) for m, text in
            zip(found, (python, js), strict=True) if m is not None] == [
        ("`if (a, b) == (2, 3)` → `if False`", b"    if False:"),
        ("`if a === 2 && b === 3` → `if false`", b"  if (false) {")]
    assert apply.branch_deleted("m.py", python, 4) is None  # no `if` there
