"""How a test is known from one run to another: by its name (and its file, where the name does
not say it); and, for a test of the base that the head does not run under that name, by looser
names that honest changes keep, matched only against tests that are new at head, one to one:

1. its name without its file (a module moved within discovery, tests moved into another file:
   the same class and function path, for pytest and unittest; for Jest, Vitest and Mocha the
   same title);
2. that name with positional parametrize ids made alike (`test_x[styles0]` and
   `test_x[styles1]`: pytest numbers a parameter it cannot name, so inserting a case
   renumbers the ones after it): the base's cases of that shape pair with the head's new ones;
3. a test that was not parametrised, by its function (`test_add` runs on as `test_add[2-3-5]`
   and every other new case of it);
4. for Rust, its function under fewer modules (a unit test `tests::parses` in src/ moved to
   an integration test `parses` in tests/); for JavaScript, its own title under renamed
   describes (`cookie.parse(str) > ignores OWS` as `cookie.parseCookie > ignores OWS`, seen
   on jshttp/cookie when an API was renamed with its spec files);
5. last, a case whose id differs only in its digits from a new case of the same function in the
   same file (`test_x[08:30:22 2026-12-03]` and `test_x[08:31:05 2026-12-03]`: parameters
   made from the time of the run, as marshmallow's are), one to one, where as many of the
   function's gone cases as of its new ones have that id once digits are masked; ids alike
   in more or fewer cases stay apart, so a case removed is still one.

A test of the base is matched by a test that was not there at base, never by one that ran at
base too: deleting `test_a.py::test_zero` is not hidden by `test_b.py::test_zero`. A matched
head test is still judged by its outcome: skipped at head, it is a skip-markers finding; failed,
the suite's."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

from gate.outcomes.record import CaseResult
from gate.outcomes.runners.reports import BY_FILE

Key = tuple[str | None, str]
_RUST = frozenset({"cargo test", "nextest"})
_PARAMS = re.compile(r"\[(.*)\]$", re.S)
_POSITIONAL = re.compile(r"^([A-Za-z_]+)\d+$")  # pytest's id for a value it cannot name
_DIGITS = re.compile(r"\d+")


def key(runner: str, case: CaseResult) -> Key:
    return (case.file if runner in BY_FILE else None, case.name)


def _path(case: CaseResult) -> str:
    """The name without its file: `tests/test_a.py::TestA::test_x` -> `TestA::test_x`
    (unittest's `tests.test_a.TestA.test_x` -> `TestA.test_x`)."""
    if case.file and case.name.startswith(case.file + "::"):
        return case.name[len(case.file) + 2:]
    module = case.file[:-3].replace("/", ".") + "." if case.file and case.file.endswith(
        ".py") else None
    if module and case.name.startswith(module):
        return case.name[len(module):]
    return case.name


def _positional(case: CaseResult) -> str | None:
    path = _path(case)
    found = _PARAMS.search(path)
    if found is None:
        return None
    parts = found.group(1).split("-")
    alike = [_POSITIONAL.sub(r"\1#", p) for p in parts]
    return path[:found.start()] + "[" + "-".join(alike) + "]" if alike != parts else None


def _function(case: CaseResult) -> str:
    return _PARAMS.sub("", _path(case))


def _digits_masked(case: CaseResult) -> tuple[str | None, str] | None:
    """The case's file and name with the digits of its id masked, for an id with digits:
    `t.py::test_x[08:30:22 2026-12-03]` -> `t.py::test_x[#:#:# #-#-#]`."""
    found = _PARAMS.search(case.name)
    if found is None or not _DIGITS.search(found.group(1)):
        return None
    return case.file, case.name[:found.start()] + "[" + _DIGITS.sub("#", found.group(1)) + "]"


def _unparametrised(case: CaseResult) -> str | None:
    return None if _PARAMS.search(_path(case)) else _path(case)


def _rust_function(case: CaseResult) -> str:
    return case.name.rsplit("::", 1)[-1].split()[-1]


def _own_title(case: CaseResult) -> str:
    return case.name.rsplit(" > ", 1)[-1]


# (name for a base test, name for a head test, one head test per base test)
_Level = tuple[Callable[[CaseResult], str | None], Callable[[CaseResult], str | None], bool]
_LEVELS: tuple[_Level, ...] = (
    (_path, _path, True),
    (_positional, _positional, True),
    (_unparametrised, _function, False),
)
_RUST_LEVELS: tuple[_Level, ...] = ((_rust_function, _rust_function, True),)
_JS = frozenset({"jest", "vitest", "mocha", "node:test"})
_JS_LEVELS: tuple[_Level, ...] = ((_own_title, _own_title, True),)


def _alike_but_digits(gone: list[CaseResult], new: list[CaseResult],
                      ) -> dict[int, CaseResult]:
    """Level 5: the gone cases (by their index in `gone`) paired one to one, in order, with
    the new cases of the same file, function and masked id, where that id has as many gone
    cases as new ones."""
    by_gone: dict[tuple[str | None, str], list[int]] = defaultdict(list)
    by_new: dict[tuple[str | None, str], list[CaseResult]] = defaultdict(list)
    for i, case in enumerate(gone):
        masked = _digits_masked(case)
        if masked is not None:
            by_gone[masked].append(i)
    for case in new:
        masked = _digits_masked(case)
        if masked is not None:
            by_new[masked].append(case)
    return {i: c for masked, indices in by_gone.items()
            if len(indices) == len(by_new.get(masked, ()))
            for i, c in zip(indices, by_new[masked], strict=True)}


def still_running(runner: str, gone: Iterable[CaseResult], new: Iterable[CaseResult],
                  ) -> tuple[list[CaseResult], dict[Key, list[CaseResult]]]:
    """Of the base's tests `gone` (not run at head under their name), those that no new test
    of the head (`new`) continues; and the head's tests that continue each of the others."""
    left = list(gone)
    unused = list(new)
    matched: dict[Key, list[CaseResult]] = {}
    levels = _LEVELS + (_RUST_LEVELS if runner in _RUST else
                        _JS_LEVELS if runner in _JS else ())
    for of_base, of_head, one in levels:
        by_name: dict[str, list[CaseResult]] = defaultdict(list)
        for case in unused:
            name = of_head(case)
            if name is not None:
                by_name[name].append(case)
        still: list[CaseResult] = []
        for case in left:
            name = of_base(case)
            found = by_name.get(name) if name is not None else None
            if not found:
                still.append(case)
                continue
            taken = [found.pop(0)] if one else found[:]
            if not one:
                found.clear()
            matched[key(runner, case)] = taken
            unused = [c for c in unused if all(c is not t for t in taken)]
        left = still
    paired = _alike_but_digits(left, unused)
    for i, case in paired.items():
        matched[key(runner, left[i])] = [case]
    return [c for i, c in enumerate(left) if i not in paired], matched
