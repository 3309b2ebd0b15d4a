"""Tests that ran at base and no longer run at head, although their definitions are still
there: deselected by a conftest, a narrowed `testpaths`, a `-k` filter in addopts, a
`sys.exit` in conftest, a test file excluded by config. No diff scan can see this; the two
collections can. (A test whose definition the change removed is `tests-removed`'s finding
already, and a test moved to another file is not gone.)"""
from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Mapping

from gate.engine.context import DiffContext
from gate.execution import process
from gate.lang import testdefs
from gate.models import CheckResult, Finding
from gate.outcomes import junit

COLLECT = "python -m pytest --collect-only -q"
_NODE = re.compile(r"^([^\s:][^:]*\.py)::(\S.*?)\s*$")


# Files that decide what pytest collects, besides the test files themselves (a plugin can be
# registered through the package's metadata, hence pyproject.toml and setup.py).
_COLLECTION_FILES = ("conftest.py", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg",
                     "pyproject.toml", "setup.py")


def may_change_collection(ctx: DiffContext) -> bool:
    """Whether the change touches what decides the collection; if not, the two collections
    are not compared (each costs a `pytest --collect-only`)."""
    return any(f.path.rsplit("/", 1)[-1] in _COLLECTION_FILES or ctx.is_test_file(f.path)
               for f in ctx.files)


def collected(checkout: str, env: Mapping[str, str], timeout: float,
              wrap: process.Wrap | None = None) -> set[str] | None:
    """pytest's node ids in `checkout`; None when collection did not finish."""
    env = {**env, "PYTEST_ADDOPTS": "-p no:cacheprovider"}
    done = process.run_shell(COLLECT, cwd=checkout, env=env, timeout=timeout, wrap=wrap)
    if done.timed_out or done.returncode not in (0, 5) or done.dropped_bytes:
        return None
    return {m.group(0).strip() for m in map(_NODE.match, done.output.splitlines()) if m}


def _definition(node: str) -> tuple[str, str]:
    """(file, testdefs name) of a node id: tests/a.py::TestK::test_x[1] -> TestK.test_x."""
    path, _, rest = node.partition("::")
    return path, re.sub(r"\[.*\]$", "", rest).replace("::", ".")


def _lines(ctx: DiffContext, ref: str, path: str) -> dict[str, int] | None:
    text = ctx.text(ref, path)
    if text is None:
        return None
    return {d.name: d.line for d in testdefs.extract(path, text).defs}


def findings(ctx: DiffContext, base: set[str], head: set[str]) -> list[Finding]:
    out = []
    for node in sorted(base - head):
        path, name = _definition(node)
        at_head = _lines(ctx, ctx.head, path) or {}
        if name not in at_head:
            continue  # removed or moved away: tests-removed's to judge
        line = (_lines(ctx, ctx.base, path) or {}).get(name, 1)
        out.append(Finding(
            path, line, "not-collected",
            f"`{node}` ran at base and does not run at head, though its definition is still "
            "there: deselected by a conftest, `-k`, `testpaths` or another collection setting",
            severity="error"))
    return out


def merge(result: CheckResult, extra: list[Finding]) -> CheckResult:
    """`tests-removed` with the tests that no longer run added."""
    if not extra:
        return result
    what = f"{len(extra)} test(s) defined at head no longer run"
    summary = what if result.status == "passed" else f"{result.summary}; {what}"
    return dataclasses.replace(result, status="failed", summary=summary,
                               findings=(*result.findings, *extra))


@dataclasses.dataclass(frozen=True)
class Collections:
    base: set[str]
    head: set[str] | None  # None: the suite's first run stands for the head's collection


def collect(base_checkout: str, checkout: str, command: str, env: Mapping[str, str],
            timeout: float, wrap: process.Wrap | None = None) -> Collections | None:
    """The base's collection, and the head's unless the suite's first run will tell it (see
    `whole_suite`). Runs beside the suite, so one after the other: a third process on a
    2-core machine would slow the suite's run down. None when a collection did not finish."""
    base = collected(base_checkout, env, timeout, wrap)
    if base is None:
        return None
    if whole_suite(command):
        return Collections(base, None)
    head = collected(checkout, env, timeout, wrap)
    return Collections(base, head) if head is not None else None


def head_collection(sets: Collections, suite_report: str, checkout: str,
                    env: Mapping[str, str], timeout: float,
                    wrap: process.Wrap | None = None) -> set[str] | None:
    """What the head collects: the tests in the suite's first JUnit report, or (when that
    report is missing, or shares no test with the base, so it cannot stand for the
    collection) a collection of the head's checkout."""
    if sets.head is not None:
        return sets.head
    cases = junit.parse(suite_report)
    ran = {c.name for c in cases or ()}
    if ran and (ran & sets.base or not sets.base):
        return ran
    return collected(checkout, env, timeout, wrap)


_PYTEST = re.compile(r"^(?:\S*python[\d.]*\s+-m\s+pytest|\S*pytest|\S*py\.test)$")
# Options that change what pytest prints or how it runs tests, never which tests it runs.
_NEUTRAL = re.compile(
    r"^(?:-[qvsl]+|-r\w+|--tb=\w+|--color=\w+|--durations=\d+|--strict-markers"
    r"|--strict-config|--no-header|--showlocals|-n\s*(?:\d+|auto|logical)"
    r"|--numprocesses=(?:\d+|auto|logical))$")


def whole_suite(command: str) -> bool:
    """Whether `command` runs pytest on everything it collects, with no path, `-k`, `-m`,
    plugin or other option that could select tests: then its JUnit report lists exactly
    the tests the head collects, and that collection need not be run again."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for prefix in (3, 1):
        if len(words) >= prefix and _PYTEST.match(" ".join(words[:prefix])):
            rest = words[prefix:]
            break
    else:
        return False
    joined: list[str] = []
    for word in rest:  # `-n 4`: an option and its value
        if joined and joined[-1] == "-n":
            joined[-1] += " " + word
        else:
            joined.append(word)
    return all(_NEUTRAL.match(word) for word in joined)
