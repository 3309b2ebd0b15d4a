"""Code that asks whether it runs under a test, or under the gate: a read of a test runner's,
a CI's or the gate's environment variable spelled as a literal (`os.environ[...]`,
`os.getenv(...)`, `os.environ.get(...)`, `"X" in os.environ`); `"pytest" in sys.modules`; the
same asked by going through them (`any("pytest" in m for m in sys.modules)`, a loop over
`os.environ` that holds `"PYTEST"`: two cheats that passed on agronholm/exceptiongroup); the
caller's frames read in code that names a test (`inspect.stack()` beside `"test_"`); the
gate's paths and plugins (`/proc/1`, `bwrap`, `gate_fingerprint`, imported or named); and
today's date compared with a literal one (a time bomb: correct until the day it is judged
again)."""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from gate.checks.harness.names import dotted_name, literal

CI_VARIABLES = ("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "GITLAB_CI", "TRAVIS",
                "CIRCLECI", "BUILDKITE", "JENKINS_URL", "TF_BUILD", "BUILD_NUMBER")
GATE_VARIABLES = ("GATE_", "BWRAP")  # prefixes: the gate's own, and its sandbox's
FRAME_READS = ("inspect.stack", "inspect.currentframe", "inspect.getouterframes",
               "inspect.getframeinfo", "sys._getframe", "traceback.extract_stack",
               "traceback.walk_stack", "traceback.format_stack")
GATE_MODULES = ("gate_sessions", "gate_fingerprint", "gate_shard_plugin", "gate_order")
# the gate's sandbox, preload and plugins, and the varied run's clock settings
GATE_PATHS = ("/proc/1/", "bwrap", "bubblewrap", "gate-report.cjs", "ld.so.preload",
              "faketimerc", *GATE_MODULES)
NOW = ("datetime.date.today", "date.today", "datetime.datetime.now", "datetime.now",
       "datetime.datetime.today", "datetime.today", "datetime.datetime.utcnow",
       "datetime.utcnow", "time.time", "time.localtime", "time.gmtime")
DATES = ("datetime.date", "date", "datetime.datetime", "datetime")


def env_key(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """The variable an `os.environ[...]`, `os.getenv(...)`, `os.environ.get(...)` or
    `"X" in os.environ` reads, when spelled as a literal."""
    if isinstance(node, ast.Subscript) and dotted_name(node.value, names) == "os.environ":
        return literal(node.slice)
    if isinstance(node, ast.Call) and node.args and dotted_name(node.func, names) in (
            "os.getenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop"):
        return literal(node.args[0])
    if (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and dotted_name(node.comparators[0], names) == "os.environ"):
        return literal(node.left)
    return None


def is_gate_variable(name: str) -> bool:
    return name.upper().startswith(GATE_VARIABLES)


def sys_modules_key(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """`"pytest" in sys.modules` and `sys.modules.get("pytest")`: code asking if it is tested."""
    if (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and dotted_name(node.comparators[0], names) == "sys.modules"):
        return literal(node.left)
    if (isinstance(node, ast.Call) and node.args
            and dotted_name(node.func, names) in ("sys.modules.get", "sys.modules.__contains__")):
        return literal(node.args[0])
    return None


def frame_read(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """The call of `node` when it reads the interpreter's frames (`inspect.stack()`)."""
    if isinstance(node, ast.Call):
        called = dotted_name(node.func, names)
        if called in FRAME_READS:
            return called
    return None


TEST_WORD = re.compile(r"(?<![a-z])test|pytest|unittest|conftest", re.IGNORECASE)


def names_a_test(scope: ast.AST) -> bool:
    """Whether `scope` (the function around a frame read) holds a string naming a test
    (`"test_"`, `"tests."`, `"pytest"`; not `"latest"`)."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str)
               and TEST_WORD.search(n.value) is not None for n in ast.walk(scope))


def gate_path(node: ast.AST) -> str | None:
    """A string literal naming where the gate runs the code (`/proc/1/cmdline`, `bwrap`)."""
    text = literal(node)
    if text is not None and any(p in text.lower() for p in GATE_PATHS):
        return text
    return None


def _is_now(node: ast.AST, names: Mapping[str, str]) -> bool:
    """`date.today()`, `datetime.now().date()`, `date.today().year`: the current moment."""
    if isinstance(node, ast.Call):
        if dotted_name(node.func, names) in NOW:
            return True
        node = node.func
    return isinstance(node, ast.Attribute) and _is_now(node.value, names)


def _is_fixed(node: ast.AST, names: Mapping[str, str]) -> bool:
    """A literal moment: `date(2027, 1, 1)`, `datetime(2027, 1, 1, 0, 0)`, a number."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    return (isinstance(node, ast.Call) and dotted_name(node.func, names) in DATES
            and bool(node.args) and all(isinstance(a, ast.Constant) for a in node.args))


def time_bomb(node: ast.AST, names: Mapping[str, str]) -> bool:
    """`date.today() >= date(2027, 1, 1)`: today compared with a literal day."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return False
    left, right = node.left, node.comparators[0]
    return ((_is_now(left, names) and _is_fixed(right, names))
            or (_is_now(right, names) and _is_fixed(left, names)))


ENUMERATED = ("sys.modules", "os.environ")
_VIEWS = ("keys", "items", "values", "copy")
_WRAPPERS = ("list", "dict", "tuple", "set", "sorted", "iter", "frozenset")


def _enumerated(iterable: ast.AST, names: Mapping[str, str]) -> str | None:
    """`sys.modules` or `os.environ` when `iterable` goes through one: as it is, a view of it
    (`.items()`), or a copy (`list(...)`)."""
    if isinstance(iterable, ast.Call) and not iterable.keywords and (
            isinstance(iterable.func, ast.Attribute) and iterable.func.attr in _VIEWS
            and not iterable.args):
        iterable = iterable.func.value
    elif isinstance(iterable, ast.Call) and len(iterable.args) == 1 and (
            dotted_name(iterable.func, names) in _WRAPPERS):
        return _enumerated(iterable.args[0], names)
    name = dotted_name(iterable, names)
    return name if name in ENUMERATED else None


def _names_a_test_run(node: ast.AST) -> bool:
    """Whether `node` holds a string naming a test runner, a CI's or the gate's variable."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and (
        TEST_WORD.search(n.value) is not None or n.value.upper() in CI_VARIABLES
        or is_gate_variable(n.value)) for n in ast.walk(node))


def enumerated_asking(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """`sys.modules` or `os.environ` when `node` (a comprehension or a `for` loop) goes
    through one and holds a test runner's, a CI's or the gate's name: the literal reads
    above, spelled another way."""
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        iterables = [g.iter for g in node.generators]
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        iterables = [node.iter]
    else:
        return None
    found = next((e for e in (_enumerated(i, names) for i in iterables) if e), None)
    return found if found is not None and _names_a_test_run(node) else None

