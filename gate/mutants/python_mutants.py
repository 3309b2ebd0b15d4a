"""Mutants of Python source, read with `ast` (the gate has no tree-sitter grammar for Python):
node positions give the spans, the text between two operands gives an operator's token.

Left out, as lines with nothing to test: docstrings, imports, type annotations, logging and
`print` calls, f-strings; and any mutation after which the file no longer compiles."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from gate.mutants import calls, environment
from gate.mutants.mutant import Mutant, shown_text
from gate.mutants.operators import REMOVED, RETURNS, TRUE, Kind, bumped, swap

_BINARY: dict[type[ast.AST], str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^",
}
_COMPARE: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}
_GAP = re.compile(rb"^[\s()\\]*(.+?)[\s()\\]*$", re.DOTALL)


class _Offsets:
    def __init__(self, text: bytes) -> None:
        self.starts = [0]
        for i, byte in enumerate(text):
            if byte == 0x0A:
                self.starts.append(i + 1)

    def at(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def line(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1


def _span(node: ast.AST, at: _Offsets) -> tuple[int, int] | None:
    if not isinstance(node, (ast.expr, ast.stmt)):
        return None
    if node.end_lineno is None or node.end_col_offset is None:
        return None
    return at.at(node.lineno, node.col_offset), at.at(node.end_lineno, node.end_col_offset)


def _asks_the_environment(test: ast.expr) -> bool:
    """Whether an `if`'s test reads which Python or platform runs it, and nothing else (`if
    sys.version_info < (3, 13):`): on the gate's one interpreter the test has one value, so
    `if True` in its place is the same program where it is true, and code for another
    Python where it is false; either way no test of the change can kill it (seen on
    agronholm/exceptiongroup 2a84dfd, a TypeVar defaults guard). Joined to another
    condition, it is an `if` like any other."""
    return environment.checks_where(test) is not None


def _left_out(tree: ast.Module) -> set[int]:
    """The ids of nodes whose subtree has nothing to test."""
    out: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            out.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.JoinedStr)):
            drop(node)
        elif isinstance(node, (ast.AnnAssign, ast.arg)):
            drop(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
        elif isinstance(node, (ast.If, ast.IfExp)) and _asks_the_environment(node.test):
            out.add(id(node))  # no `if True` for it
            drop(node.test)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            drop(node)  # a docstring
        elif isinstance(node, ast.Call) and calls.is_logging(ast.unparse(node.func)):
            drop(node)
        elif _first_of_counted(node):
            assert isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call)
            for count in [*node.value.args[1:], *(k.value for k in node.value.keywords)]:
                drop(count)
            if node.value.args and isinstance(node.value.func, ast.Attribute) and (
                    node.value.func.attr == "most_common"):
                drop(node.value.args[0])
    return out


_COUNTED = ("most_common", "split")  # x.most_common(n)[0], s.split(sep, n)[0]


def _first_of_counted(node: ast.AST) -> bool:
    """`counter.most_common(1)[0]`, `text.split(",", 1)[0]`: the first item does not depend on
    how many are asked for, so a bumped count is a mutant no test can kill (seen on
    mahmoud/boltons 967864f, `Counter(data).most_common(1)[0][0]`)."""
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and node.slice.value == 0 and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _COUNTED)


def _token(text: bytes, start: int, end: int, token: str) -> tuple[int, int] | None:
    """Where `token` is in the gap between two operands (parentheses and spaces around it)."""
    gap = text[start:end]
    match = _GAP.match(gap)
    if match is None or b" ".join(match.group(1).split()) != token.encode():
        return None
    return start + match.start(1), start + match.end(1)


def _swapped(kind: Kind, token: str, augmented: bool) -> str | None:
    """What an operator token becomes; `augmented`: `+=` becomes `-=`."""
    if not augmented:
        return swap(kind, "python", token)
    after = swap(kind, "python", token[:-1])
    return after + "=" if after else None


def _between(node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST, str, Kind]]:
    """(left operand, right operand, token, kind) of each operator of a node."""
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        yield node.left, node.right, _BINARY[type(node.op)], "arithmetic"
    elif isinstance(node, ast.AugAssign) and type(node.op) in _BINARY:
        yield node.target, node.value, _BINARY[type(node.op)] + "=", "arithmetic"
    elif isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            yield operands[i], operands[i + 1], _COMPARE[type(op)], "comparison"
    elif isinstance(node, ast.BoolOp):
        token = "and" if isinstance(node.op, ast.And) else "or"
        for left, right in zip(node.values, node.values[1:], strict=False):
            yield left, right, token, "boolean"


def _candidates(path: str, text: bytes, tree: ast.Module) -> Iterator[Mutant]:
    at = _Offsets(text)
    skip = _left_out(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        whole = _span(node, at)
        for left, right, token, kind in _between(node):
            gap_start, gap_end = _span(left, at), _span(right, at)
            after = _swapped(kind, token, isinstance(node, ast.AugAssign))
            found = (_token(text, gap_start[1], gap_end[0], token)
                     if gap_start and gap_end and after else None)
            if found is None or whole is None or after is None:
                continue
            start, end = found
            mutated = text[:start] + after.encode() + text[end:]
            yield Mutant(path, at.line(start), kind, start, end, after.encode(),
                         shown_text(text, *whole),
                         shown_text(mutated, whole[0], whole[1] + len(after) - (end - start)))
        if whole is None:
            continue
        if isinstance(node, ast.If) and not (
                isinstance(node.test, ast.Constant) and node.test.value is True):
            test = _span(node.test, at)
            if test:
                yield Mutant(path, node.lineno, "branch", *test, TRUE["python"].encode(),
                             f"if {shown_text(text, *test)}", f"if {TRUE['python']}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            after = swap("constant", "python", repr(node.value))
            if after:
                yield Mutant(path, node.lineno, "constant", *whole, after.encode(),
                             repr(node.value), after)
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            literal = text[whole[0]:whole[1]].decode("ascii", "replace")
            bigger = bumped(literal)
            if bigger:
                yield Mutant(path, node.lineno, "constant", *whole, bigger.encode(),
                             literal, bigger)
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            value = _span(node.value, at)
            if value:
                yield Mutant(path, node.lineno, "return", *value, RETURNS["python"].encode(),
                             shown_text(text, *whole), f"return {RETURNS['python']}")
        elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)) and (
                id(node.value) not in skip):
            yield Mutant(path, node.lineno, "statement", *whole, REMOVED["python"].encode(),
                         shown_text(text, *whole), REMOVED["python"])


def candidates(path: str, text: bytes) -> list[Mutant]:
    """Every mutation of the file, unchecked (see `parses`), in no particular order."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return list(_candidates(path, text, tree))


def parses(path: str, text: bytes) -> bool:
    try:
        compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True
