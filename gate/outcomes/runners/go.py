"""go test: "--- PASS/FAIL/SKIP: TestX" per top-level test (verbose: GOFLAGS=-v), and
"ok" / "FAIL" per package."""
from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gate.outcomes.record import CaseResult, Counts, Outcome
from gate.vcs import git

NAME = "go test"
_PACKAGE = re.compile(r"^(ok|FAIL|\?) *\t(\S+)[\t ](.*)$", re.M)
_RESULT = re.compile(r"^--- (PASS|FAIL|SKIP): (\S+) \(")
_RUN = re.compile(r"^=== RUN\s+([^/\s]+)\s*$")
_LOG = re.compile(r"^\s+(\w+_test\.go):\d+: (.*)$")
_OUTCOMES: dict[str, Outcome] = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped"}


def env(environ: dict[str, str]) -> dict[str, str]:
    """Ask for every test's result: `-v` in GOFLAGS applies to `go test` and is harmless to
    the other go commands."""
    flags = environ.get("GOFLAGS", "")
    return {"GOFLAGS": f"{flags} -v".strip()}


def workspace_pin(checkout: str, environ: Mapping[str, str]) -> dict[str, str]:
    """GOWORK=off where the checkout has no go.work of its own and the user set no GOWORK:
    go looks for a go.work in every directory above the one it runs in, and one planted
    above the checkout (its `replace` directives win over the module's) would decide what
    the tests build (issue 22). A project with a go.work keeps it: go finds it first."""
    if "GOWORK" in environ or any(os.path.basename(p) == "go.work"
                                  for p in git.checkout_files(checkout)):
        return {}
    return {"GOWORK": "off"}


def _tests(lines: list[str]) -> list[CaseResult]:
    """Top-level tests, with the first line a failing one logged (verbose or not)."""
    cases: list[CaseResult] = []
    logs: dict[str, tuple[str, str]] = {}
    running = None
    for line in lines:
        run = _RUN.match(line)
        if run:
            running = run.group(1)
            continue
        result = _RESULT.match(line)
        if result:
            running = result.group(2)
            cases.append(CaseResult(running, None, None, _OUTCOMES[result.group(1)]))
            continue
        log = _LOG.match(line)
        if log and running is not None:
            logs.setdefault(running, (log.group(1), log.group(2)))
    out = []
    for case in cases:
        file, message = logs.get(case.name, (None, ""))
        if case.outcome == "failed":
            case = CaseResult(case.name, file, None, "failed", message)
        out.append(case)
    return out


def parse(output: str, report: str) -> Counts | None:
    packages = _PACKAGE.findall(output)
    if not packages:
        return None
    broken = [CaseResult(f"{name} ({rest.strip('[]')})", None, None, "failed")
              for status, name, rest in packages
              if status == "FAIL" and rest.startswith("[") and "failed]" in rest]
    tests = _tests(output.splitlines())
    if not any(c.outcome == "passed" for c in tests):
        ran = [p for p in packages if p[0] != "?"]
        failed = sum(p[0] == "FAIL" for p in ran)
        return Counts(NAME, len(ran) - failed, failed, 0,
                      (*(c for c in tests if c.outcome == "failed"), *broken),
                      complete=False, unit="packages")
    return Counts(NAME, sum(c.outcome == "passed" for c in tests),
                  sum(c.outcome == "failed" for c in tests) + len(broken),
                  sum(c.outcome == "skipped" for c in tests), (*tests, *broken),
                  complete=not broken)
