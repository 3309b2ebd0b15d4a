"""What the tests pass: the literal arguments of the calls in the head's test files, as
`values.Value`s, for `special_cases` to look for in the changed code.

Each call whose every argument is a literal (or a name bound to one in the test, or a
`pytest.mark.parametrize` value of the test function) is a `Call`: the callee's name and its
whole argument tuple. Every compound value among them (`values.is_compound`) is `passed`,
with where the test passes it. Python here (`ast`); the other languages in
`inputs_syntax.py`, into the same records."""
from __future__ import annotations

import ast
import dataclasses
import itertools

from gate.pinned import values
from gate.pinned.values import Value

_ROWS = 200  # parametrize rows read per test function


@dataclasses.dataclass(frozen=True)
class Call:
    callee: str  # the called name (a method's or attribute's last part)
    args: tuple[Value, ...]
    keywords: tuple[tuple[str, Value], ...]
    path: str
    line: int


@dataclasses.dataclass
class Inputs:
    calls: list[Call] = dataclasses.field(default_factory=list)
    passed: dict[Value, tuple[str, int]] = dataclasses.field(default_factory=dict)

    def add(self, call: Call) -> None:
        self.calls.append(call)
        for value in (*call.args, *(v for _, v in call.keywords)):
            self.passes(value, call.path, call.line)

    def passes(self, value: Value, path: str, line: int) -> None:
        if values.is_compound(value):
            self.passed.setdefault(value, (path, line))
            if value[0] == "seq":  # a parametrize row, a table's row: its items too
                for item in value[1]:
                    self.passes(item, path, line)

    def update(self, other: Inputs) -> None:
        self.calls += other.calls
        for value, where in other.passed.items():
            self.passed.setdefault(value, where)


def value(node: ast.AST, names: dict[str, Value]) -> Value | None:
    """The Value of a literal expression (names bound to literals read from `names`)."""
    if isinstance(node, ast.Constant):
        return values.of(node.value)
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = value(node.operand, names)
        if inner is None or inner[0] != "num":
            return None
        return ("num", -inner[1]) if isinstance(node.op, ast.USub) else inner
    if isinstance(node, (ast.List, ast.Tuple)):
        return values.seq([value(x, names) for x in node.elts])
    if isinstance(node, ast.Set):
        items = [value(x, names) for x in node.elts]
        return None if any(x is None for x in items) else ("set", frozenset(items))
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            return None
        return values.mapping([(value(k, names), value(v, names))
                               for k, v in zip(node.keys, node.values, strict=True)
                               if k is not None])
    return None


def _bound(body: list[ast.stmt], names: dict[str, Value]) -> dict[str, Value]:
    """`names` and the names `body` binds to literals (the last binding wins)."""
    out = dict(names)
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name):
                found = value(node.value, out)
                if found is not None:
                    out[node.targets[0].id] = found
    return out


def _parametrized(function: ast.FunctionDef | ast.AsyncFunctionDef, names: dict[str, Value],
                  ) -> list[dict[str, Value]]:
    """Each row of the function's `parametrize` decorators, as argument name -> value (the
    rows of several decorators combined)."""
    tables = []
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Call) and len(decorator.args) >= 2 and (
                ast.unparse(decorator.func).endswith("parametrize"))):
            continue
        spec = value(decorator.args[0], names)
        if spec is None:
            continue
        argnames = ([n.strip() for n in spec[1].split(",") if n.strip()] if spec[0] == "str"
                    else [x[1] for x in spec[1] if x[0] == "str"] if spec[0] == "seq" else [])
        if not argnames or not isinstance(decorator.args[1], (ast.List, ast.Tuple)):
            continue
        rows = []
        for row in decorator.args[1].elts[:_ROWS]:
            if isinstance(row, ast.Call) and ast.unparse(row.func).endswith("param"):
                items: list[ast.expr] = list(row.args)
            elif len(argnames) > 1 and isinstance(row, (ast.List, ast.Tuple)):
                items = list(row.elts)
            else:
                items = [row]
            found = {n: v for n, item in zip(argnames, items, strict=False)
                     if (v := value(item, names)) is not None}
            rows.append(found)
        tables.append(rows)
    if not tables:
        return [{}]
    return [{k: v for row in combo for k, v in row.items()}
            for combo in itertools.islice(itertools.product(*tables), _ROWS)]


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _calls(path: str, line: int, nodes: list[ast.stmt], rows: list[dict[str, Value]],
           names: dict[str, Value], out: Inputs) -> None:
    for row in rows:
        scope = {**names, **row}
        for value_ in row.values():
            out.passes(value_, path, line)
        for stmt in nodes:
            for node in ast.walk(stmt):
                if not isinstance(node, ast.Call) or (name := _callee(node)) is None:
                    continue
                args = [value(a, scope) for a in node.args]
                keywords = [(k.arg, value(k.value, scope)) for k in node.keywords]
                for v in args:
                    if v is not None:
                        out.passes(v, path, node.lineno)
                if not args and not keywords:
                    continue
                if all(a is not None for a in args) and all(
                        k is not None and v is not None for k, v in keywords):
                    out.add(Call(name, tuple(a for a in args if a is not None),
                                 tuple((k, v) for k, v in keywords
                                       if k is not None and v is not None),
                                 path, node.lineno))


def python(path: str, text: bytes) -> Inputs:
    """The inputs a Python test file passes (none if it does not parse)."""
    out = Inputs()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return out
    module = _bound([s for s in tree.body if isinstance(s, ast.Assign)], {})
    functions = [n for n in ast.walk(tree)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:
        rows = _parametrized(function, module)
        names = _bound(function.body, module)
        # a nested function's calls are read with it and with its own parent alike: harmless
        _calls(path, function.lineno, function.body, rows, names, out)
    top = [s for s in tree.body
           if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    _calls(path, 1, top, [{}], module, out)
    return out
