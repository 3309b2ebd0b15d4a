"""go.mod read as configuration (rule `go-mod`), compared as parsed directives, not as text:
what changes which code `go test` builds and how it runs, other than a version required.

- `replace`: added or changed, it builds another copy of a module than the one required (a
  patched copy under `third_party/`); the replacement inside the repository is the project's
  own code (`gate.lang.gomod.replaced`).
- `exclude`: added, it takes a version out of the build.
- `go`, `toolchain`, `godebug`: changed, added or removed, they change the language's rules
  (loop variables, from 1.22), which Go builds the tests, and the runtime's settings.
Removing a `replace` or an `exclude` builds what go.mod requires: nothing to say. A
reformatting, a comment, a block split into lines, a `require` bumped raise nothing."""
from __future__ import annotations

from gate.lang.gomod import directives
from gate.models import Finding
from gate.vcs.diff import ChangedFile

_ADDED = frozenset({"replace", "exclude"})  # only what is added matters


_SAY = {"replace": "builds this copy in place of the module go.mod requires; check it is not "
                   "a stand-in for a dependency",
        "exclude": "takes this version out of the build",
        "go": "changes the language version the code is compiled under (loop variables, "
              "language features)",
        "toolchain": "changes which Go toolchain builds and runs the tests",
        "godebug": "changes the runtime's settings the tests run with"}


def go_mod(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    if old is None or new is None:
        return []  # a new module, or one removed: what it holds is read as code
    before, after = directives(old), directives(new)
    findings = [Finding(path, line, "go-mod", f"go.mod {kind} `{entry}` added: `go test` "
                        + _SAY[kind], severity="warning")
                for (kind, entry), line in after.items() if (kind, entry) not in before]
    first = min(f.added) if f.added else 1
    findings += [Finding(path, first, "go-mod", f"go.mod {kind} `{entry}` removed: `go test` "
                         + _SAY[kind], severity="warning")
                 for (kind, entry) in before if kind not in _ADDED and (kind, entry) not in after
                 and not any(k == kind for k, _ in after)]
    return sorted(findings, key=lambda x: x.line)
