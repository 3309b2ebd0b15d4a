"""Where a failing test is defined: the runner names it, the source says at which line."""
from __future__ import annotations

import dataclasses
import os
import re

from gate.execution import judged_files
from gate.lang import testdefs
from gate.outcomes.record import CaseResult, Counts

_SKIP_DIRS = {".git", "node_modules", "target", "vendor", ".venv", "dist", "build"}
_SUFFIXES = {"go test": ("_test.go",), "cargo test": (".rs",), "nextest": (".rs",),
             "unittest": (".py",)}


def _identity(runner: str, name: str) -> str:
    """The name testdefs gives the same test."""
    if runner == "go test":
        return name.split("/", 1)[0]
    if runner in ("cargo test", "nextest"):
        return re.split(r"::|\s", name)[-1]
    if runner == "unittest":
        return ".".join(name.split(".")[-2:])
    return name


def _candidates(root: str, runner: str, hint: str | None) -> list[str]:
    if hint:
        path = hint if os.path.isabs(hint) else os.path.join(root, hint)
        return [path] if os.path.isfile(path) else []
    suffixes = _SUFFIXES.get(runner)
    if suffixes is None:
        return []
    found = []
    for directory, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        found += [os.path.join(directory, n) for n in sorted(names) if n.endswith(suffixes)]
    return found


def _locate(root: str, runner: str, case: CaseResult) -> CaseResult:
    if case.line is not None and case.file is not None and not os.path.isabs(case.file):
        return case
    hint = None if runner == "go test" else case.file  # go names the file's basename only
    wanted = _identity(runner, case.name)
    for path in _candidates(root, runner, hint):
        data = judged_files.read(path, follow=True)  # the install may have left a FIFO
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        rel = os.path.relpath(path, root)
        for definition in testdefs.extract(rel, text).defs:
            if definition.name == wanted:
                return dataclasses.replace(case, file=rel, line=case.line or definition.line)
    if case.file and os.path.isabs(case.file) and case.file.startswith(root + os.sep):
        return dataclasses.replace(case, file=os.path.relpath(case.file, root))
    return case


def locate(counts: Counts, root: str) -> Counts:
    """`counts` with each failing test's file (relative to `root`) and definition line."""
    cases = tuple(_locate(root, counts.runner, c) if c.outcome == "failed" else c
                  for c in counts.cases)
    return dataclasses.replace(counts, cases=cases)
