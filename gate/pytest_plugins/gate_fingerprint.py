"""The gate's fingerprint of the test framework, taken when pytest loads the gate's plugins
(before any conftest, test module or code under test is imported) and again when the session
ends, `gate_sessions` sending what changed on the gate's evidence channel: every function
and class attribute of pytest's report and call machinery (TestReport, CallInfo,
runtestprotocol, the makereport and junitxml plugins, the terminal reporter, pytest's
outcomes), of pluggy's hook calling, of unittest's TestCase and TestResult, and of a few
builtins (AssertionError). What changed between the two, and what at either time is code of
the judged checkout rather than of the framework (a script that patched before calling
`pytest.main()`), is sent with the file and line of the replacement: `harness` compares it
with the base's run.

Judged by what the objects are and what they hold, not by names: a function is the same only
with the same code object, defaults, keyword defaults, closure cells' contents and
`__wrapped__` (swapping a function's `__code__` keeps the same function object in the same
place); a replacement is found however it was spelt (names built at run time, a folder named
`_pytest`, bytecode without source). The framework's own code is where the framework was
imported from, nothing else. Standard library only."""
from __future__ import annotations

import builtins
import os
import sys
import sysconfig
from collections.abc import Iterator
from typing import Any

import pytest

MODULES = ("pytest", "_pytest.reports", "_pytest.runner", "_pytest.terminal", "_pytest.main",
           "_pytest.python", "_pytest.outcomes", "_pytest.junitxml", "_pytest.nodes",
           "_pytest.skipping", "_pytest.python_api", "_pytest.unittest",
           "_pytest.assertion.rewrite", "_pytest.assertion.util", "pluggy._callers",
           "pluggy._hooks", "pluggy._manager", "unittest.case", "unittest.result",
           "unittest.runner", "unittest.suite",
           # the gate's own recorders: wrapping them is changing the framework (issue 50)
           "gate_sessions", "gate_evidence", "gate_hooks")
BUILTINS = ("AssertionError", "Exception", "BaseException", "isinstance", "issubclass",
            "len", "repr", "str", "bool", "all", "any", "print", "__import__")
Place = tuple[str, int]  # the file and first line of an object's code


GATE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # its unittest preload


def _roots() -> tuple[str, ...]:
    """Where the framework's own code lives, as imported: its packages' directories; and
    the gate's own (its preload wraps unittest's TestResult to hear the outcomes)."""
    import unittest

    # gate: allow harness -- the gate's own plugin: it fingerprints pytest's insides
    import _pytest
    import pluggy

    return (GATE + os.sep, *(os.path.dirname(os.path.realpath(m.__file__ or "")) + os.sep
                             for m in (_pytest, pytest, pluggy, unittest)))


def _installed() -> tuple[str, ...]:
    """The environment's and the interpreter's own library directories."""
    paths = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(os.path.realpath(p) + os.sep for p in paths if p)


def _function(obj: Any) -> Any:
    """The Python function behind `obj`: itself, a property's getter, a static or class
    method's function, a partial's, a callable instance's `__call__`; None if none."""
    for _ in range(4):
        if isinstance(obj, property):
            obj = obj.fget
        elif isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        elif not hasattr(obj, "__code__") and callable(getattr(obj, "func", None)):
            obj = obj.func
        else:
            break
    if hasattr(obj, "__code__"):
        return obj
    call = vars(type(obj)).get("__call__") if not isinstance(obj, type) else None
    return call if hasattr(call, "__code__") else None


def _place(obj: Any) -> Place | None:
    """Where `obj` was defined: the file of the module whose globals its code runs in (a
    `.pyc` stays a `.pyc`: the file its code names can be anything), else that name; a class
    by its module's file; None for what has no Python code (builtins, C)."""
    function = _function(obj)
    if function is None:
        if isinstance(obj, type) and obj.__module__ != "builtins":
            path = getattr(sys.modules.get(obj.__module__), "__file__", None)
            return (str(path), 1) if path else None
        return None
    code = function.__code__
    path = getattr(function, "__globals__", {}).get("__file__") or code.co_filename
    return str(path), int(code.co_firstlineno)


def _attributes() -> Iterator[tuple[str, Any]]:
    """(dotted name, object) for everything fingerprinted."""
    for name in BUILTINS:
        if hasattr(builtins, name):
            yield f"builtins.{name}", getattr(builtins, name)
    for module_name in MODULES:
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for name, value in list(vars(module).items()):
            if name.startswith("__"):
                continue
            yield f"{module_name}.{name}", value
            if isinstance(value, type) and value.__module__ == module_name:
                for attr, member in list(vars(value).items()):
                    if not attr.startswith("__") or attr in ("__init__", "__call__", "__eq__"):
                        yield f"{module_name}.{name}.{attr}", member


def _parts(obj: Any) -> tuple[Any, ...]:
    """What a function holds that can be changed in place: its code, defaults, keyword
    defaults, its closure cells' contents and what it wraps (kept, so compared by identity)."""
    function = _function(obj)
    if function is None:
        return ()
    cells = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # an empty cell
            cells.append(_EMPTY)
    return (function, getattr(function, "__code__", None), getattr(function, "__defaults__", None),
            getattr(function, "__kwdefaults__", None),
            vars(function).get("__wrapped__") if hasattr(function, "__dict__") else None, *cells)


_EMPTY = object()


def take() -> dict[str, tuple[Any, tuple[Any, ...]]]:
    """Each fingerprinted name's object, and what its function holds."""
    return {name: (value, _parts(value)) for name, value in _attributes()}


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _foreign(place: Place | None, roots: tuple[str, ...], installed: tuple[str, ...]) -> bool:
    """Code that is neither the framework's nor an installed library's: the checkout's."""
    if place is None:
        return False
    path = os.path.realpath(place[0])
    return not path.startswith(roots) and not path.startswith(installed)


Taken = dict[str, tuple[Any, tuple[Any, ...]]]


def changes(start: Taken, end: Taken) -> list[dict[str, Any]]:
    """What differs between the two fingerprints, and what is foreign code at either."""
    roots, installed = _roots(), _installed()
    out: dict[str, dict[str, Any]] = {}
    for name, (value, parts) in start.items():
        after = end.get(name)
        if after is None:
            out[name] = {"name": name, "what": "removed", "file": None, "line": None}
        elif after[0] is not value or not _same(parts, after[1]):
            place = _place(after[0])
            out[name] = {"name": name, "what": "replaced", "file": place and place[0],
                         "line": place and place[1]}
    for name, (value, _) in end.items():
        place = _place(value)
        if name not in out and _foreign(place, roots, installed) and place is not None:
            out[name] = {"name": name, "what": "foreign", "file": place[0], "line": place[1]}
    return [out[name] for name in sorted(out)]


# What decides an outcome, watched around each test's call (`moved`): the report and its
# making, the call and its outcomes, skipping and xfail, pluggy's calling of the hooks, the
# builtins. A part patched for the session and put back at its last teardown is seen there.
DECIDING = ("builtins.", "_pytest.reports.", "_pytest.runner.CallInfo",
            "_pytest.runner.call_and_report", "_pytest.runner.call_runtest_hook",
            "_pytest.runner.runtestprotocol", "_pytest.runner.pytest_runtest_makereport",
            "_pytest.runner.check_interactive_exception", "_pytest.outcomes.",
            "_pytest.skipping.", "pluggy._callers.", "pluggy._hooks.", "gate_sessions.",
            "gate_evidence.", "gate_hooks.")


def _space(name: str) -> tuple[Any, str] | None:
    """The live namespace that holds `name` (a module's or a class's dict) and its key."""
    if name.startswith("builtins."):
        return vars(builtins), name[9:]
    module_name = next((m for m in MODULES if name.startswith(m + ".")), None)
    module = sys.modules.get(module_name or "")
    if module is None or module_name is None:
        return None
    first, _, member = name[len(module_name) + 1:].partition(".")
    if not member:
        return vars(module), first
    owner = vars(module).get(first)
    return (vars(owner), member) if isinstance(owner, type) else None


Watched = list[tuple[str, Any, str, Any, tuple[Any, ...]]]


def watched(start: Taken) -> Watched:
    """(name, namespace, key, object, parts) of each deciding name of `start`; a class's
    entry is also held as (name, its namespace, "", its members' names, ()), so that a
    member added to it is seen."""
    out: Watched = []
    classes: set[int] = set()
    for name, (value, parts) in start.items():
        where = _space(name) if name.startswith(DECIDING) else None
        if where is not None:
            out.append((name, where[0], where[1], value, parts))
            if isinstance(value, type) and id(value) not in classes:
                classes.add(id(value))
                out.append((name, vars(value), "", frozenset(vars(value)), ()))
    return out


_HOMES: list[tuple[tuple[str, ...], tuple[str, ...]]] = []


def _homes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`_roots()` and `_installed()`, once."""
    if not _HOMES:
        _HOMES.append((_roots(), _installed()))
    return _HOMES[0]


def moved(entries: Watched) -> list[dict[str, Any]]:
    """What of `entries` is now another object, or a class with a member it did not have:
    identities only, cheap enough for every test."""
    out: list[dict[str, Any]] = []
    for name, space, key, value, _ in entries:
        if not key:  # a class's members: one added changes their number (one replaced or
            # removed is its own entry's)
            for member in set(space) - value if len(space) != len(value) else ():
                place = _place(space[member])  # pytest's legacypath adds Config.rootdir
                if place is not None and _foreign(place, *_homes()):
                    out.append({"name": f"{name}.{member}", "what": "foreign",
                                "file": place[0], "line": place[1]})
            continue
        now = space.get(key, _EMPTY)
        if now is _EMPTY:
            out.append({"name": name, "what": "removed", "file": None, "line": None})
        elif now is not value:  # a function's code or defaults swapped is audited: the
            # watcher sees it at its line (and the end's fingerprint, by content)
            place = _place(now)
            out.append({"name": name, "what": "replaced", "file": place and place[0],
                        "line": place and place[1]})
    return out


START = take()  # at import: PYTEST_PLUGINS loads this before conftests and test modules
LOADED = len(START)  # how many names it holds, sent when a session opens
WATCHED = watched(START)
