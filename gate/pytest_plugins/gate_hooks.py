"""The implementations of the hooks that decide an outcome, read from pytest's own registry
(`config.pluginmanager`), in the controller and in every xdist worker (issue 50): whatever
registered them (an entry point, `-p`, a conftest, package code calling `register`, a worker
only), each is where its code says it is. Two things are sent, as `gate_fingerprint`'s
changes are (`harness` compares them with the base's run):

- `claimed`: the implementation's code names a file that is not there, or that defines no
  such function at that line: `compile()` takes any file name, and a plugin registered by
  package code that calls itself `<rootdir>/conftest.py` was left out of the head's plugins
  as the project's own conftest. That is tampering;
- `package-hook`: an implementation whose code is a file of the checkout that is not one of
  its tests (a conftest or a test module): code under test that takes part in deciding the
  outcomes of its own tests.

The hooks are those through which a plugin changes what is run, what it gave, or what is
said of it (`DECIDING`). Standard library only, and pytest."""
from __future__ import annotations

import os
import re
from typing import Any

DECIDING = ("pytest_runtest_", "pytest_report_", "pytest_collection", "pytest_collect",
            "pytest_make_collect_report", "pytest_pycollect_", "pytest_pyfunc_call",
            "pytest_terminal_summary", "pytest_sessionfinish", "pytest_sessionstart",
            "pytest_deselected", "pytest_itemcollected", "pytest_generate_tests",
            "pytest_assertrepr_compare", "pytest_fixture_", "pytest_exception_interact",
            "pytest_keyboard_interrupt", "pytest_internalerror", "pytest_unconfigure")
# a conftest, a test module, or a helper in a test directory
_TEST = re.compile(r"(?:^|/)(?:conftest|test_\w*|\w*_test)\.py$|(?:^|/)(?:tests?|testing)/")
_DEF = re.compile(r"\s*(?:async\s+)?def\s+(\w+)\s*\(")
_LINES: dict[str, list[str] | None] = {}  # file -> its lines (None: not there)


def _lines(path: str) -> list[str] | None:
    if path not in _LINES:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _LINES[path] = f.read().splitlines()
        except (OSError, ValueError):
            _LINES[path] = None
    return _LINES[path]


def _defines(code: Any) -> bool:
    """Whether the file `code` names defines a function of its name at its first line (past
    the decorators, which the first line counts)."""
    lines = _lines(code.co_filename)
    if lines is None or not 0 < code.co_firstlineno <= len(lines):
        return False
    start = code.co_firstlineno - 1
    if code.co_name == "<lambda>":
        return "lambda" in lines[start]
    for text in lines[start:start + 40]:
        found = _DEF.match(text)
        if found:
            return bool(found.group(1) == code.co_name)
    return False


def _compiled_only(function: Any) -> bool:
    """A module imported from bytecode without its source (its code names where it was
    compiled): `gate_fingerprint` judges those."""
    file = str(getattr(function, "__globals__", {}).get("__file__") or "")
    return file.endswith(".pyc") and os.path.isfile(file)


def _name(function: Any, hook: str) -> str:
    module = getattr(function, "__module__", None) or "?"
    return f"hook {hook}: {module}.{getattr(function, '__qualname__', '?')}"


def anomalies(config: Any, root: str, sent: set[int]) -> list[dict[str, Any]]:
    """The implementations of `DECIDING` hooks that claim a file or a line that is not
    theirs, or are code of the checkout (`root`) that is not a test; each function once
    (`sent`: the ids already judged)."""
    out = []
    prefix = os.path.realpath(root) + os.sep
    for hook in sorted(n for n in dir(config.pluginmanager.hook) if n.startswith(DECIDING)):
        caller = getattr(config.pluginmanager.hook, hook, None)
        for impl in getattr(caller, "get_hookimpls", lambda: [])():
            function = getattr(impl, "function", None)
            function = getattr(function, "__func__", function)
            code = getattr(function, "__code__", None)
            if code is None or id(function) in sent:
                continue
            sent.add(id(function))
            file = str(code.co_filename)
            if not _defines(code) and not _compiled_only(function):
                out.append({"name": _name(function, hook), "what": "claimed", "file": file,
                            "line": code.co_firstlineno})
            elif os.path.realpath(file).startswith(prefix) and not _TEST.search(file):
                out.append({"name": _name(function, hook), "what": "package-hook",
                            "file": file, "line": code.co_firstlineno})
    return out
