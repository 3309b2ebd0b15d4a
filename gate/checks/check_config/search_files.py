"""The files a toolchain finds by itself and that swap what the tests build: go.work and
Cargo's `.cargo/config.toml`. Both are searched for in the working directory and every
directory above it, so one added anywhere in the checkout applies to the code beneath it.

- go.work: a new workspace, a `replace` added or changed, or a `use` added: each makes `go
  test` build another copy of a module than the one go.mod requires (a local fake of a
  dependency). Removing a `use` or a `replace` only narrows the workspace: nothing to say.
- .cargo/config.toml (and the older `.cargo/config`): aliases (`cargo test` itself can be
  aliased), build flags, target runners, `[env]`, `[patch]` and source replacement. Any change
  is one finding: the file has no honest everyday edits."""
from __future__ import annotations

import posixpath
import re

from gate.models import Finding
from gate.vcs.diff import ChangedFile

GO_WORK = "go.work"
CARGO_CONFIGS = (".cargo/config.toml", ".cargo/config")

_DIRECTIVE = re.compile(r"^\s*(use|replace)\b\s*(\(?)\s*(.*?)\s*(?://.*)?$")


def is_cargo_config(path: str) -> bool:
    return any(path == c or path.endswith("/" + c) for c in CARGO_CONFIGS)


def go_directives(text: str) -> dict[tuple[str, str], int]:
    """go.work's `use` and `replace` entries (kind, entry text normalised) with their lines;
    blocks (`use (` ... `)`) as well as single lines."""
    out: dict[tuple[str, str], int] = {}
    block: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("//", 1)[0].strip()
        if block is not None:
            if line == ")":
                block = None
            elif line:
                out.setdefault((block, " ".join(line.split())), number)
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            continue
        kind, opens, rest = m.groups()
        if opens and not rest:
            block = kind
        elif rest:
            out.setdefault((kind, " ".join(rest.split())), number)
    return out


def go_work(path: str, old: str | None, new: str | None, f: ChangedFile) -> list[Finding]:
    if new is None:
        return []
    first = min(f.added) if f.added else 1
    if old is None:
        return [Finding(path, first, "go-workspace", f"{path} added: every `go` command under "
                        f"{posixpath.dirname(path) or 'the root'} now builds the workspace's "
                        "modules in place of the versions go.mod requires; check it swaps in "
                        "no local copy of a dependency", severity="warning")]
    before = go_directives(old)
    return [Finding(path, line, "go-workspace", f"go.work {kind} `{entry}` added: `go test` "
                    "builds this copy in place of the module go.mod requires; check it is not "
                    "a stand-in for a dependency", severity="warning")
            for (kind, entry), line in sorted(go_directives(new).items(), key=lambda x: x[1])
            if (kind, entry) not in before]


def cargo_config(path: str, _old: str | None, _new: str | None,
                 f: ChangedFile) -> list[Finding]:
    first = min(f.added) if f.added else 1
    return [Finding(path, first, "cargo-config", f"Cargo configuration {f.status}: its aliases, "
                    "build flags, runners, [env], [patch] and source replacement change what "
                    "`cargo test` builds and runs for every crate beneath it; review the change",
                    severity="warning")]
