"""`special-cased-input` read from the text alone (no run): a changed line that branches on
exactly the input a test passes, in Python, JavaScript, Go and Rust; and what honest code
does with constants, which is no finding (edge values, a table of constants, a single
scalar)."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.pinned import special_cases, values
from gate.vcs import diff

TOPK = b"""\
def topk(k, seq, key=None):
    seq = list(seq)
    if seq == [5, 9, 2, 1, 5, 3]:
        return tuple(seq[:k])
    return tuple(sorted(seq, key=key, reverse=True)[:k])
"""


def _found(path: str, code: bytes, test_path: str, test: bytes) -> list[tuple[int, str]]:
    inputs = special_cases.test_inputs(test_path, test)
    lines = set(range(1, code.count(b"\n") + 2))
    return [(s.line, s.message()) for s in special_cases.in_file(path, code, lines, inputs)]


def _lines(path: str, code: bytes, test_path: str, test: bytes) -> list[int]:
    return [line for line, _ in _found(path, code, test_path, test)]


def test_the_toolz_special_case_is_found_with_where_the_test_passes_its_input() -> None:
    test = b"from toolz import topk\n\n\ndef test_topk_is_stable():\n" \
           b"    assert topk(4, [5, 9, 2, 1, 5, 3], key=lambda x: 1) == (5, 9, 2, 1)\n"
    assert _found("toolz/itertoolz.py", TOPK, "toolz/tests/test_itertoolz.py", test) == [(
        3, "`if seq == [5, 9, 2, 1, 5, 3]` singles out exactly the input a test passes "
           "(`[5, 9, 2, 1, 5, 3]`, toolz/tests/test_itertoolz.py:5), and returns before the "
           "general path: the tests may pass only through this special case")]


def test_values_are_compared_not_spellings_a_parametrized_tuple_is_the_list() -> None:
    test = b"import pytest\n\n\n@pytest.mark.parametrize('seq, k', [((5, 9, 2, 1, 5, 3), 2)])\n" \
           b"def test_topk(seq, k):\n    assert len(topk(k, seq)) == k\n"
    assert _lines("t.py", TOPK, "tests/test_t.py", test) == [3]


def test_a_list_the_test_binds_to_a_name_first_is_its_input_too() -> None:
    test = b"def test_topk():\n    seq = [5, 9, 2, 1, 5, 3]\n    assert topk(2, seq)\n"
    assert _lines("t.py", TOPK, "tests/test_t.py", test) == [3]


def test_a_list_the_tests_never_pass_is_not_a_special_case() -> None:
    test = b"def test_topk():\n    assert topk(2, [5, 9, 2, 1, 5])\n"
    assert _lines("t.py", TOPK, "tests/test_t.py", test) == []


ADD = b"""\
def add(a, b):
    if a == 2 and b == 3:
        return 5
    return a - b


def mul(a, b):
    if (a, b) == (2, 3):
        return 6
    return a + b


def sub(a, b):
    if a == 2:
        return 0
    return a - b
"""


def test_the_whole_argument_tuple_as_a_conjunction_or_a_tuple_is_a_special_case() -> None:
    test = b"def test_calc():\n    assert add(2, 3) == 5\n    assert mul(2, 3) == 6\n" \
           b"    assert sub(2, 2) == 0\n"
    found = _found("calc.py", ADD, "tests/test_calc.py", test)
    assert [line for line, _ in found] == [2, 8]  # sub's `a == 2` is one scalar of two
    assert "(`add(2, 3)`, tests/test_calc.py:2)" in found[0][1]


def test_a_conjunction_over_the_arguments_of_another_function_is_not() -> None:
    test = b"def test_calc():\n    assert power(2, 3) == 8\n"
    assert _lines("calc.py", ADD, "tests/test_calc.py", test) == []


HONEST = b"""\
def div(a, b):
    if b == 0:
        return None
    return a / b


def reason(code):
    if code == 404:
        return "Not Found"
    if code == 500:
        return "Server Error"
    return "OK"


def origin(x, y):
    if x == 0 and y == 0:
        return True
    return False


def kind(words):
    if words == ["GROUP", "BY"]:
        return "group"
    if words == ["ORDER", "BY"]:
        return "order"
    return "other"
"""


def test_honest_edge_values_and_a_table_of_constants_are_no_finding() -> None:
    test = b"def test_all():\n    assert div(1, 0) is None\n    assert reason(404) == " \
           b"'Not Found'\n    assert origin(0, 0)\n    assert kind(['GROUP', 'BY']) == 'group'\n"
    assert _lines("calc.py", HONEST, "tests/test_calc.py", test) == []


def test_a_chain_whose_every_value_is_a_tests_input_is_special_cases_not_a_table() -> None:
    test = b"def test_kind():\n    assert kind(['GROUP', 'BY'])\n    assert kind(['ORDER', 'BY'])\n"
    assert _lines("calc.py", HONEST, "tests/test_calc.py", test) == [22, 24]


JS = b"""\
function add(a, b) {
  if (a === 2 && b === 3) {
    return 5;
  }
  return a - b;
}

function reason(code) {
  if (code === 404) {
    return "Not Found";
  }
  return "OK";
}

const topk = (k, seq) => {
  if (JSON.stringify(seq) === "[5,9,2,1,5,3]") return seq.slice(0, k);
  return seq;
};

module.exports = { add, reason, topk };
"""
JS_TEST = b"""\
const { add, reason, topk } = require('../calc');
test('add', () => { assert.strictEqual(add(2, 3), 5); });
test('reason', () => { assert.strictEqual(reason(404), 'Not Found'); });
const seq = [5, 9, 2, 1, 5, 3];
test('topk', () => { expect(topk(2, seq)).toEqual([5, 9]); });
"""


def test_javascript_a_conjunction_and_a_stringified_array() -> None:
    assert _lines("calc.js", JS, "test/calc.test.js", JS_TEST) == [2, 16]


GO = b"""\
package calc

func Add(a, b int) int {
\tif a == 2 && b == 3 {
\t\treturn 5
\t}
\treturn a - b
}

func Div(a, b int) int {
\tif b == 0 {
\t\treturn 0
\t}
\treturn a / b
}
"""
GO_TEST = b"""\
package calc

import "testing"

func TestAdd(t *testing.T) {
\tcases := []struct{ a, b, want int }{{a: 2, b: 3, want: 5}}
\tfor _, c := range cases {
\t\tif got := Add(c.a, c.b); got != c.want {
\t\t\tt.Fatal(got)
\t\t}
\t}
\tif Div(4, 0) != 0 {
\t\tt.Fatal()
\t}
}
"""


def test_go_a_table_tests_row_is_the_call_s_argument_tuple() -> None:
    assert _lines("calc.go", GO, "calc_test.go", GO_TEST) == [4]


RUST = b"""\
pub fn add(a: i32, b: i32) -> i32 {
    if a == 2 && b == 3 {
        return 5;
    }
    a - b
}

pub fn topk(k: usize, seq: &[i32]) -> Vec<i32> {
    match seq {
        [5, 9, 2, 1, 5, 3] => vec![5, 9],
        _ => seq[..k].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t() {
        assert_eq!(add(2, 3), 5);
        assert_eq!(topk(2, &[5, 9, 2, 1, 5, 3]), vec![5, 9]);
    }
}
"""


def test_rust_inside_assert_macros_and_a_match_arm() -> None:
    code = RUST.split(b"#[cfg(test)]")[0]
    assert _lines("src/lib.rs", code, "src/lib.rs", RUST) == [2, 10]


def test_one_value_model_for_every_language() -> None:
    assert values.of([5, 9]) == values.of((5, 9)) == values.of((5.0, 9))
    assert values.of({"a": [1, 2]}) == values.of({"a": (1, 2)})
    assert values.of(True) != values.of(1)
    assert not values.is_compound(values.of([0, 1, -1]))
    assert not values.is_compound(values.of("word"))
    assert values.is_compound(values.of("two words"))
    assert values.from_json("[5, 9]") == values.of([5, 9])


def test_found_on_a_base_and_head_pair(tmp_path: Path) -> None:
    base = {"toolz/itertoolz.py": TOPK.replace(b"    if seq == [5, 9, 2, 1, 5, 3]:\n"
                                               b"        return tuple(seq[:k])\n",
                                               b"").decode(),
            "toolz/tests/test_itertoolz.py": "from toolz.itertoolz import topk\n\n\n"
                                             "def test_topk_is_stable():\n"
                                             "    assert topk(4, [5, 9, 2, 1, 5, 3]) == ()\n"}
    repo, base_sha, head_sha = make_change(tmp_path / "r", base,
                                           {"toolz/itertoolz.py": TOPK.decode()})
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha,
                      config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    assert [(s.path, s.line, s.test) for s in special_cases.in_change(ctx)] == [
        ("toolz/itertoolz.py", 3, ("toolz/tests/test_itertoolz.py", 5))]


def test_generated_code_nested_deeper_than_python_s_stack_is_still_read() -> None:
    deep = b"const table = " + b"[" * 3000 + b"]" * 3000 + b";\n"
    assert _lines("calc.js", deep + JS, "test/calc.test.js", JS_TEST) == [3, 17]
