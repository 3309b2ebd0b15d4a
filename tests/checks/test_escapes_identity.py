"""Escapes by the statement they belong to (`gate.lang.identity`): a formatter's join or split,
a re-indent, a move or a renamed code leaves an escape that was there as it was; an escape on
a statement that had none, or on one more copy of it, is new."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks import escapes

# Black 24 ("dummy class implementations"): the body `...` joined onto the signature's last
# line, the pragma with it; 14 such stubs in one commit were each called a new escape.
_STUBS_BEFORE = '''\
from typing import Protocol, TypeVar

T = TypeVar("T")


class Store(Protocol[T]):
    def get(
        self,
        key: str,
    ) -> T:
        ...  # pragma: no cover

    def put(
        self,
        key: str,
        value: T,
    ) -> None:
        ...  # pragma: no cover

    def keys(self) -> list[str]:
        ...  # pragma: no cover
'''
_STUBS_AFTER = '''\
from typing import Protocol, TypeVar

T = TypeVar("T")


class Store(Protocol[T]):
    def get(
        self,
        key: str,
    ) -> T: ...  # pragma: no cover

    def put(
        self,
        key: str,
        value: T,
    ) -> None: ...  # pragma: no cover

    def keys(self) -> list[str]: ...  # pragma: no cover

    def drop(self, key: str) -> None: ...  # pragma: no cover
'''


def test_a_formatter_joining_the_line_of_a_pragma_adds_no_escape(tmp_path: Path) -> None:
    result = run_check(escapes.run, tmp_path, {"store.py": _STUBS_BEFORE},
                       {"store.py": _STUBS_AFTER})
    # the three stubs were there; `drop` is new, and so is its pragma
    assert found(result) == [("store.py", 20, "pragma: no cover")]


def test_a_formatter_splitting_a_statement_keeps_its_escape(tmp_path: Path) -> None:
    before = "result = compute(first_argument, second_argument)  # type: ignore[arg-type]\n"
    after = ("result = compute(\n    first_argument,  # type: ignore[arg-type]\n"
             "    second_argument,\n)\n")
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == []


def test_an_escape_put_on_a_statement_that_had_none_is_new(tmp_path: Path) -> None:
    before = "result = compute(first_argument, second_argument)\n"
    after = ("result = compute(\n    first_argument,  # type: ignore[arg-type]\n"
             "    second_argument,\n)\n")
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == [
        ("m.py", 2, "type: ignore")]


def test_an_escape_copied_onto_a_second_copy_of_its_statement_is_new(tmp_path: Path) -> None:
    before = "def f():\n    x = g()  # type: ignore\n    return x\n"
    after = "def f():\n    x = g()  # type: ignore\n    x = g()  # type: ignore\n    return x\n"
    # git shows either copy as the added line: one of them is new
    assert [rule for _, _, rule in found(run_check(escapes.run, tmp_path, {"m.py": before},
                                                   {"m.py": after}))] == ["type: ignore"]


def test_an_escape_moved_to_another_statement_is_new(tmp_path: Path) -> None:
    before = "def f():\n    x = g()  # type: ignore\n    y = h()\n"
    after = "def f():\n    x = g()\n    y = h()  # type: ignore\n"
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == [
        ("m.py", 3, "type: ignore")]


def test_an_escape_on_the_same_text_in_another_function_is_new(tmp_path: Path) -> None:
    before = "def f():\n    x = g()  # type: ignore\n\n\ndef k():\n    x = 1\n"
    after = "def f():\n    x = g()\n\n\ndef k():\n    x = g()  # type: ignore\n"
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == [
        ("m.py", 6, "type: ignore")]


# TypeScript: the statement wrapped in a new block and split by prettier (its new indentation
# made it too long), the `as any` and the `@ts-expect-error` above another statement with it.
_TS_BEFORE = '''\
export function load(input: unknown, options: Options): Value {
  // @ts-expect-error the upstream type lacks `raw`
  const raw = input.raw;
  const value = convert(input as any, options, raw);
  return value;
}
'''
_TS_AFTER = '''\
export function load(input: unknown, options: Options): Value {
  if (options.enabled) {
    // @ts-expect-error the upstream type lacks `raw`
    const raw = input.raw;
    const value = convert(
      input as any,
      options,
      raw,
    );
    return value;
  }
  return fallback(input as any);
}
'''


def test_typescript_escapes_reindented_and_split_are_not_new(tmp_path: Path) -> None:
    result = run_check(escapes.run, tmp_path, {"src/load.ts": _TS_BEFORE},
                       {"src/load.ts": _TS_AFTER})
    assert found(result) == [("src/load.ts", 12, "as any")]  # the new `fallback` line


def test_a_directive_for_the_whole_file_moved_down_is_not_new(tmp_path: Path) -> None:
    before = "/* eslint-disable no-console */\nimport a from 'a';\nconsole.log(a);\n"
    after = ("import a from 'a';\nimport b from 'b';\n/* eslint-disable no-console */\n"
             "console.log(a, b);\n")
    assert found(run_check(escapes.run, tmp_path, {"a.js": before}, {"a.js": after})) == []


def test_a_next_line_directive_follows_its_statement(tmp_path: Path) -> None:
    before = ("function f() {\n  // eslint-disable-next-line no-await-in-loop\n"
              "  await step();\n}\n")
    after = ("async function f() {\n  for (const s of steps) {\n"
             "    // eslint-disable-next-line no-await-in-loop\n    await step();\n  }\n"
             "  // eslint-disable-next-line no-console\n  console.log(steps);\n}\n")
    assert found(run_check(escapes.run, tmp_path, {"a.js": before}, {"a.js": after})) == [
        ("a.js", 6, "eslint-disable")]


def test_an_escape_on_its_statement_with_a_name_renamed_is_not_new(tmp_path: Path) -> None:
    # pallets/click 333c28d7: `KeepOpenFile` made private on the line that held the escape
    before = ("def open_stream(stream, encoding, color):\n"
              "    yield KeepOpenFile(stream), encoding, color  # type: ignore[misc]\n")
    after = before.replace("KeepOpenFile", "_KeepOpenFile")
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == []
    # its twin: the escape widened as the name changed
    wider = after.replace("[misc]", "")
    assert found(run_check(escapes.run, tmp_path / "twin", {"m.py": before},
                           {"m.py": wider})) == [("m.py", 2, "type: ignore")]


def test_an_escape_on_a_signature_joined_with_its_body_is_not_new(tmp_path: Path) -> None:
    # pallets/click 8a2b4890: `def arity(self) -> int:  # type: ignore` over a body that
    # raised became an abstract one-liner, `def arity(self) -> int: ...  # type: ignore[...]`
    before = ("class ParamType:\n    def arity(self) -> int:  # type: ignore\n"
              "        raise NotImplementedError()\n")
    after = ("class ParamType:\n    @abc.abstractmethod\n"
             "    def arity(self) -> int: ...  # type: ignore[override]\n")
    assert found(run_check(escapes.run, tmp_path, {"m.py": before}, {"m.py": after})) == []
