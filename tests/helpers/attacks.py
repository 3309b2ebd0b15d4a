"""Attack code shared by the tests that judge it at different layers."""
from __future__ import annotations

import base64

# pytest's makereport keeps its function object and its place; only its code is swapped, for
# one that reports every call as passed. The module is found by a name decoded at run time,
# so that no static rule reads it. Its line 16 swaps the code.
_NAME = base64.b64encode(b"_pytest.runner").decode()
CODE_SWAP = f"""\
import base64
import importlib

_runner = importlib.import_module(base64.b64decode("{_NAME}").decode())
_real = _runner.pytest_runtest_makereport


def _passing(item, call):
    report = _REAL(item, call)
    report.outcome = "passed"
    report.longrepr = None
    return report


_REAL = _real.__class__(_real.__code__, _real.__globals__)
_real.__code__ = _passing.__code__
_real.__globals__["_REAL"] = _REAL
"""
CODE_SWAP_LINE = 16
