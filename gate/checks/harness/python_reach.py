"""Python code outside the tests that reaches into a test framework, read as code (the `ast`):
never in strings or comments. Only statements on the lines the change adds are looked at."""
from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator, Mapping

from gate.checks.harness import always_equal, run_reads
from gate.checks.harness.names import FRAMEWORKS, dotted_name, import_aliases, literal, root_of
from gate.checks.harness.pytest_hooks import HOOKS

INTERNAL_MODULES = ("_pytest", "unittest.case", "unittest.result", "unittest.runner",
                    "unittest.loader", "unittest.suite", "unittest.main", "unittest.util",
                    "unittest.signals")
MUTATORS = ("setattr", "delattr")
READ = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.Call, ast.Import,
        ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.Subscript, ast.Compare,
        ast.Constant, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.For,
        ast.AsyncFor)
# An added line that may hold a reach: an attribute or item assigned, setattr/delattr/del, a
# framework named, the environment or sys.modules read, a pytest hook defined. Only a file with
# such a line is parsed. Also: frames read, the gate's paths, today's date, an `__eq__`.
MAY_REACH = re.compile(
    r"[\w\])]\s*(?:\.\s*\w+|\[[^\]\n]*\])\s*(?:[-+*/%|&^@]|<<|>>|//|\*\*)?=(?!=)"
    r"|\b(?:setattr|delattr|del|_pytest|unittest|pluggy|environ|getenv|modules|__import__"
    r"|import_module)\b"
    r"|\bdef\s+pytest_|\b(?:stack|_getframe|currentframe|getouterframes|extract_stack"
    r"|walk_stack|format_stack|today|now|utcnow|time|localtime|gmtime|__eq__|__ne__)\b"
    r"|gate_|(?i:" + "|".join(map(re.escape, run_reads.GATE_PATHS)) + ")")


@dataclasses.dataclass(frozen=True)
class Reach:
    line: int
    rule: str
    message: str
    everywhere: bool  # True: flagged in conftest.py and test helpers too, not only in code


def _is_testish(module: str) -> bool:
    parts = module.split(".")
    return parts[0] in (*FRAMEWORKS, "conftest") or any(
        p.startswith("test") for p in parts)


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)) and (
            not isinstance(node, ast.AnnAssign) or node.value is not None):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    return []


def _written(node: ast.AST) -> Iterator[tuple[ast.AST, ast.Subscript | None]]:
    """(the object written into, the subscript when an item is) for each assignment target,
    `del` and `setattr`/`delattr` call of `node`."""
    for target in _targets(node):
        if isinstance(target, ast.Attribute):
            yield target.value, None
        elif isinstance(target, ast.Subscript):
            yield target.value, target


def _patched(node: ast.AST, names: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """(rule, what) for each assignment into a framework, builtins or sys.modules."""
    written = list(_written(node))
    if isinstance(node, ast.Call) and dotted_name(node.func, names) in MUTATORS and node.args:
        written.append((node.args[0], None))
    for obj, item in written:
        dotted = dotted_name(obj, names)
        root = root_of(dotted)
        if root in ("builtins", "__builtins__"):
            yield "builtins-patched", dotted
        elif root in FRAMEWORKS:
            yield "framework-patched", dotted
        elif dotted == "sys.modules" and item is not None and _is_testish(
                literal(item.slice) or ""):
            yield "sys-modules-swap", f"sys.modules[{literal(item.slice)!r}]"


def _imports(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return []


def _one(node: ast.AST, names: Mapping[str, str], own: frozenset[str], scope: ast.AST,
         ) -> Iterator[tuple[str, str, bool]]:
    for rule, what in _patched(node, names):
        if root_of(what) in own:
            continue
        yield rule, f"assigns into `{what}`: it changes how the test framework or the " \
            "interpreter behaves for every test", True
    internal = [m for m in _imports(node) if root_of(m) not in own
                and (m == "_pytest" or m.startswith(("_pytest.", *INTERNAL_MODULES)))]
    if internal:
        yield "framework-internals", f"imports `{internal[0]}`, a test framework's internals", \
            False
    gate = [m for m in _imports(node) if root_of(m) in run_reads.GATE_MODULES]
    if gate and GATE not in own:
        yield "test-run-detected", f"imports `{gate[0]}`, the gate's own plugin: {UNDER_TEST}", \
            False
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in HOOKS:
        yield "pytest-hook", f"defines the pytest hook `{node.name}` outside the tests", False
    yield from _judged(node, names, scope, gate_own=GATE in own)
    equal = always_equal.method(node)
    if equal is not None:
        answer = "equal" if equal == "__eq__" else "not unequal"
        yield "always-equal", f"`{equal}` answers {answer} whatever it is compared with: " \
            "every `assert result == expected` passes", False


UNDER_TEST = "code that behaves differently when tested is not tested"


def _judged(node: ast.AST, names: Mapping[str, str], scope: ast.AST, gate_own: bool = False,
            ) -> Iterator[tuple[str, str, bool]]:
    """Code asking whether it runs under a test or under the gate (`test-run-detected`);
    `gate_own`: the gate's own code, in its own repository, where the gate's names are its
    own business."""
    env = run_reads.env_key(node, names)
    if env is not None and (env.startswith("PYTEST_") or env in run_reads.CI_VARIABLES
                            or (run_reads.is_gate_variable(env) and not gate_own)):
        rule = "ci-env-read" if env in run_reads.CI_VARIABLES else "test-run-detected"
        yield rule, f"reads the environment variable {env}: {UNDER_TEST}", False
    module = run_reads.sys_modules_key(node, names)
    if module is not None and root_of(module) in FRAMEWORKS:
        yield "test-run-detected", f"asks whether `{module}` is loaded: {UNDER_TEST}", False
    listed = run_reads.enumerated_asking(node, names)
    if listed is not None:
        yield "test-run-detected", f"goes through `{listed}` for a test runner's, a CI's or " \
            f"the gate's name: {UNDER_TEST}", False
    frames = run_reads.frame_read(node, names)
    if frames is not None and run_reads.names_a_test(scope):
        yield "test-run-detected", f"reads its callers' frames (`{frames}`) beside a test's " \
            f"name: {UNDER_TEST}", False
    path = run_reads.gate_path(node)
    if path is not None and not gate_own:
        yield "test-run-detected", f"names {path!r}, where the gate runs the tests: " \
            f"{UNDER_TEST}", False
    if run_reads.time_bomb(node, names):
        yield "test-run-detected", "compares the current date or time with a fixed one: " \
            "correct today, not on the day it is run again", False


def _span(node: ast.AST) -> range:
    first = getattr(node, "lineno", 0)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            node.name in always_equal.ANSWERS):  # a body edited to `return True`
        return range(first, (node.end_lineno or first) + 1)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return range(first, first + 1)
    return range(first, (getattr(node, "end_lineno", None) or first) + 1)


# The frameworks whose own repository a project is, by its distribution's name: only there
# may code touch their insides (a folder named `_pytest` elsewhere is no exemption).
PROJECTS = {"pytest": ("pytest", "_pytest"), "pluggy": ("pluggy",),
            "agent-test-gate": ("gate",)}  # the gate's own plugins read its own names
GATE = "gate"  # the package of the gate itself: in its own repository, its names are its own


def own_frameworks(path: str, project: str | None) -> frozenset[str]:
    """The frameworks a file belongs to: `src/_pytest/runner.py` in pytest's own repository
    (`project` is the distribution the repository builds), nothing anywhere else."""
    owned = PROJECTS.get((project or "").lower(), ())
    return frozenset(path.split("/")[:-1]) & frozenset(owned)


def _scopes(tree: ast.Module) -> dict[int, ast.AST]:
    """id(node) -> the innermost function around it (the module's nodes are not listed)."""
    out: dict[int, ast.AST] = {}
    for node in ast.walk(tree):  # outer functions first: an inner one overrides them
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            out.update((id(n), node) for n in ast.walk(node))
    return out


def scan(text: str, lines: Mapping[int, str], path: str = "", project: str | None = None,
         ) -> list[Reach]:
    """Each reach into a test framework on the added `lines` of a Python file's `text`, in
    the repository of the distribution `project`."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names, own = import_aliases(tree), own_frameworks(path, project)
    scopes = _scopes(tree)
    found: dict[tuple[int, str], Reach] = {}
    for node in ast.walk(tree):
        if not isinstance(node, READ) or not any(n in lines for n in _span(node)):
            continue
        for rule, message, everywhere in _one(node, names, own, scopes.get(id(node), tree)):
            line = getattr(node, "lineno", 1)
            found.setdefault((line, rule), Reach(line, rule, message, everywhere))
    return sorted(found.values(), key=lambda r: (r.line, r.rule))
