"""Go's outcomes from a witness the test binary does not print: the gate's own copy of the
`testing` package. Through `go build -overlay` (in GOFLAGS, with `-count=1` so that no
result comes from the test cache), every test binary the run builds is linked with the
standard `testing.go`, `example.go` and `fuzz.go` with a few calls added (`gate/preload/go/
witness.go.part`): testing itself sends on the evidence channel, opened when it initialises,
that the process started (its parent's executable), which package it tests, each test's
outcome as testing decides it, and m.Run's exit code. No file of the project changes.

What the binary printed (`runners/go.py`) is then held against it (`judged`): a test printed
passing that the testing package of its package's binary did not pass, a package printed
as tested whose binary's testing never ran its tests, a package printed `ok` whose tests
ended with another exit status, a test binary that ran itself again before its own tests
(its child's parent is the same executable, which never ran them): each is tampering (a
"kind: what" line in `Counts.evidence`), and the outcomes are the witness's. A test that runs
its own binary again (the crasher idiom) is a session of its own, not the package's.

Where the witness cannot be put in (no `go` on the gate's PATH, a Go whose sources do not
have the functions it patches, an overlay path with a space), or the command is not `go test`
itself (`make test` may run any go, or set GOFLAGS), a run the witness said nothing about is
read from what it printed, and the summary says so. A plain `go test` whose binaries sent
nothing, while the witness was in, is tampering (`missing`).
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import json
import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from gate.execution import process
from gate.execution.environment import no_git_env
from gate.outcomes.record import CaseResult, Counts, Outcome

FRAGMENT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "preload", "go", "witness.go.part")
NOTE = "outcomes as the test binaries printed them: the gate's witness sent nothing"
# (file, where the call goes, the call): each at the start of the function's body
_PATCHES = (
    ("testing.go", re.compile(r"^func \(m \*M\) Run\(\) \(code int\) \{\n", re.M),
     "\tgateWitnessRun(m)\n\tdefer gateWitnessEnd(m)\n"),
    ("testing.go", re.compile(r"^func \(t \*T\) report\(\) \{\n", re.M),
     "\tgateWitnessReport(&t.common)\n"),
    ("fuzz.go", re.compile(r"^func \(f \*F\) report\(\) \{\n", re.M),
     "\tif !*isFuzzWorker {\n\t\tgateWitnessReport(&f.common)\n\t}\n"),
    ("example.go", re.compile(r"^func \(eg \*InternalExample\) processRunResult\(.*\) "
                              r"\(passed bool\) \{\n", re.M),
     "\tdefer func() { gateWitnessExample(eg.Name, passed) }()\n"),
)
_PACKAGE = re.compile(r"^(ok|FAIL) *\t(\S+)[\t ](.*)$", re.M)
_RESULT = re.compile(r"^--- (?:PASS|FAIL|SKIP): ")
_OUTCOMES: dict[str, Outcome] = {"passed": "passed", "failed": "failed", "skipped": "skipped"}
_OUT = {"-overlay", "-exec", "-json", "-c", "-o"}  # flags that keep the witness out


@functools.cache
def goroot() -> str | None:
    """The GOROOT of the `go` on the gate's own PATH (its own environment: nothing the
    checkout wrote runs outside the boundary)."""
    go = shutil.which("go")
    if go is None:
        return None
    env = {**no_git_env(), "GOTOOLCHAIN": "local", "GOFLAGS": ""}
    done = process.run_argv([go, "env", "GOROOT"], cwd="/", env=env, timeout=60)
    root = done.output.strip()
    return root if done.ok and os.path.isdir(os.path.join(root, "src", "testing")) else None


def overlay(where: str) -> str | None:
    """The overlay file (written under `where`) that puts the witness into `testing`; None
    where it cannot be put in."""
    root = goroot()
    if root is None or " " in where:
        return None
    sources: dict[str, str] = {}
    try:
        with open(FRAGMENT, encoding="utf-8") as f:
            fragment = f.read()
        for name in ("testing.go", "example.go", "fuzz.go"):
            with open(os.path.join(root, "src", "testing", name), encoding="utf-8") as f:
                sources[name] = f.read()
    except OSError:
        return None
    for name, head, call in _PATCHES:
        found = head.search(sources[name])
        if found is None:
            return None
        sources[name] = sources[name][:found.end()] + call + sources[name][found.end():]
    sources["testing.go"] += fragment
    os.makedirs(where, exist_ok=True)
    replace = {}
    for name, text in sources.items():
        with open(os.path.join(where, name), "w", encoding="utf-8") as f:
            f.write(text)
        replace[os.path.join(root, "src", "testing", name)] = os.path.join(where, name)
    path = os.path.join(where, "overlay.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"Replace": replace}, f)
    return path


def env(environ: Mapping[str, str], where: str) -> dict[str, str]:
    """GOFLAGS with the witness's overlay and `-count=1` (nothing from the test cache); {}
    where it cannot be put in."""
    path = overlay(where)
    if path is None:
        return {}
    flags = environ.get("GOFLAGS", "")
    return {"GOFLAGS": f"{flags} -overlay={path} -count=1".strip()}


def wanted(checkout: str, command: str) -> bool:
    """Whether a run may build Go tests: a go.mod or go.work at the checkout's root, or a
    command that names `go` (other projects' runs get no overlay)."""
    return (any(os.path.isfile(os.path.join(checkout, n)) for n in ("go.mod", "go.work"))
            or re.search(r"(?:^|[\s;&|(/])go\s", command) is not None)


def alone(command: str) -> bool:
    """Whether `command` is `go test` itself, with nothing that keeps the witness out: then
    its binaries must send what they ran."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return (words[:2] == ["go", "test"]
            and not any(w.split("=")[0].lstrip("-") in {f[1:] for f in _OUT} for w in words)
            and not any(c in command for c in ";&|`$<>"))


@dataclasses.dataclass
class _Session:
    """One process that linked the witnessed `testing`."""
    pid: int
    ppid: int | None = None
    exe: str = ""
    parent: str = ""
    packages: list[str] = dataclasses.field(default_factory=list)
    tests: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # top-level
    exit: int | None = None

    @property
    def rerun(self) -> bool:
        """Started by a process of the same executable: a binary that ran itself again."""
        return bool(self.exe) and self.parent == self.exe


def _sessions(messages: Sequence[Mapping[str, Any]]) -> dict[int, _Session]:
    out: dict[int, _Session] = {}
    for m in messages:
        pid = m.get("pid")
        if not isinstance(pid, int):
            continue
        s = out.setdefault(pid, _Session(pid))
        event = m.get("e")
        if event == "init":
            s.ppid = m["ppid"] if isinstance(m.get("ppid"), int) else None
            s.exe, s.parent = str(m.get("exe", "")), str(m.get("parent", ""))
        elif event == "run":
            s.packages.append(str(m.get("pkg", "")))
        elif event == "test" and m.get("top") is True:
            s.tests.append((str(m.get("name", "")), str(m.get("outcome", ""))))
        elif event == "end" and isinstance(m.get("exit"), int):
            s.exit = m["exit"]
    return out


def judged(counts: Counts | None, messages: Sequence[Mapping[str, Any]], *, output: str,
           returncode: int | None, expected: bool) -> Counts | None:
    """`counts` (what `go test` printed) held against the witness. `expected`: the witness
    was put in and the command is `go test` itself."""
    if counts is None or counts.runner != "go test":
        return counts
    sessions = _sessions(messages)
    if not sessions and not expected:
        return dataclasses.replace(counts, unwitnessed=NOTE)
    problems: list[str] = []
    main = [s for s in sessions.values() if s.packages and not s.rerun]
    for s in sessions.values():
        parent = sessions.get(s.ppid) if s.ppid is not None else None
        if s.rerun and s.packages and (parent is None or not parent.packages):
            problems.append(f"rerun: the test binary of {s.packages[0]} ran itself again "
                            "before running its own tests")
            if not any(set(s.packages) & set(m.packages) for m in main):
                main.append(s)  # what its package's tests really did
    witnessed = {p for s in main for p in s.packages}
    printed = _PACKAGE.findall(output)
    ran = [(status, pkg) for status, pkg, rest in printed if not rest.startswith("[")]
    missing = sorted({pkg for _, pkg in ran if pkg not in witnessed} & _claiming(output))
    if missing:
        problems.append("missing: " + ", ".join(missing[:5]) + " printed as tested, and "
                        "no test binary of " + ("it" if len(missing) == 1 else "them")
                        + " ran its tests under the gate's witness")
    ended = {p: s.exit for s in main for p in s.packages if s.exit is not None}
    problems.extend(f"status-disagrees: go printed ok for {pkg}, whose tests ended with "
                    f"exit status {ended[pkg]}"
                    for status, pkg in ran if status == "ok" and ended.get(pkg, 0) != 0)
    sent = [(name, outcome) for s in main for name, outcome in s.tests]
    wrong = _unbacked(counts.cases, sent)
    if wrong:
        problems.append("printed-rewritten: " + "; ".join(wrong[:5])
                        + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else ""))
    if main and returncode == 0 and expected and any(s.exit for s in main):
        problems.append("exit-disagrees: a test binary's tests ended with a non-zero exit "
                        "status, and the command exited 0")
    if not problems:
        return counts
    return _from(sent, missing, counts, problems)


def _claiming(output: str) -> set[str]:
    """The packages whose printed block (go prints each package's output together, then its
    `ok`/`FAIL` line) claims a test's outcome: a package whose TestMain leaves before m.Run
    claims none, and has no binary that ran its tests to answer for."""
    out: set[str] = set()
    claims = False
    for line in output.splitlines():
        if _RESULT.match(line):
            claims = True
        package = _PACKAGE.match(line)
        if package is not None:
            if claims:
                out.add(package.group(2))
            claims = False
    return out


def _unbacked(cases: Sequence[CaseResult], sent: Sequence[tuple[str, str]]) -> list[str]:
    """The tests printed as passing (or skipped) more often than the witness saw them so."""
    seen = collections.Counter(sent)
    out = []
    for (name, outcome), n in collections.Counter((c.name, c.outcome) for c in cases).items():
        if outcome != "failed" and seen[(name, outcome)] < n:
            really = sorted({o for t, o in sent if t == name}) or ["not run"]
            out.append(f"{name} {outcome} as printed, {'/'.join(really)} as testing decided")
    return sorted(out)


def _from(sent: Sequence[tuple[str, str]], missing: Sequence[str], printed: Counts,
          problems: Sequence[str]) -> Counts:
    """The witness's outcomes; a package printed as tested that it never saw fails."""
    files = {c.name: (c.file, c.message) for c in printed.cases}
    cases = [CaseResult(name, files.get(name, (None, ""))[0], None, _OUTCOMES[outcome],
                        files.get(name, (None, ""))[1] if outcome == "failed" else "")
             for name, outcome in sent if outcome in _OUTCOMES]
    cases += [CaseResult(f"{pkg} (no test binary ran its tests)", None, None, "failed")
              for pkg in missing]
    return dataclasses.replace(
        printed, passed=sum(c.outcome == "passed" for c in cases),
        failed=sum(c.outcome == "failed" for c in cases),
        skipped=sum(c.outcome == "skipped" for c in cases), cases=tuple(cases),
        complete=True, unit="tests", evidence=(*printed.evidence, *problems))
