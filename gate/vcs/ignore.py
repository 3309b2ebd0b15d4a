"""What a ref's .gitignore files ignore, asked of git itself (`git check-ignore --no-index`)
in a scratch repository that holds only those files, so that no working tree is read or
touched and no user's excludes file counts."""
from __future__ import annotations

import dataclasses
import os
import posixpath
import tempfile
from collections.abc import Sequence

from gate.vcs import git


@dataclasses.dataclass(frozen=True)
class Match:
    source: str  # the .gitignore that ignores the path, e.g. "docs/.gitignore"
    line: int
    pattern: str


def ignored(repo: str, ref: str, tracked: Sequence[str], paths: Sequence[str],
            ) -> dict[str, Match]:
    """The `paths` that the .gitignore files among `tracked` (the files at `ref`) ignore,
    with the rule that ignores each."""
    sources = [p for p in tracked if posixpath.basename(p) == ".gitignore"]
    if not sources or not paths:
        return {}
    blobs = git.read_blobs(repo, ref, sources)
    with tempfile.TemporaryDirectory(prefix="gate-ignore-") as scratch:
        git.run(scratch, "init", "-q")
        for source, blob in blobs.items():
            if blob is None:
                continue
            target = os.path.join(scratch, *source.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as written:
                written.write(blob)
        request = "".join(f"{p}\0" for p in paths).encode("utf-8", "surrogateescape")
        out = git.run(scratch, "-c", f"core.excludesFile={os.devnull}", "check-ignore",
                      "--no-index", "--verbose", "--stdin", "-z", input=request, check=False)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    found = {}
    for i in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[i:i + 4]
        if pattern.startswith("!"):  # a negation: the path is not ignored
            continue
        found[path] = Match(source, int(line), pattern)
    return found
