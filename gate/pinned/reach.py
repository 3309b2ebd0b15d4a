"""Which test files can reach a mutated file: the narrowest run that can still kill it.

Go: the package's own `_test.go` files (its directory). Python and JavaScript/TypeScript: the
head's test files whose text names the file's module (its name without the extension; for
`__init__.py` and `index.*`, its directory's). Rust: none named (its unit tests live in
the sources: the whole command runs). No test file found: the whole command runs."""
from __future__ import annotations

import posixpath
import re

from gate.engine.context import DiffContext
from gate.vcs import git


def module_name(path: str) -> str:
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if stem in ("__init__", "index", "mod", "lib", "main"):
        return posixpath.basename(posixpath.dirname(path)) or stem
    return stem


def tests_of(ctx: DiffContext, path: str) -> list[str]:
    """The head's test files that can reach `path`; [] when the whole command must run."""
    if path.endswith(".rs"):
        return []
    tests = [p for p in git.ls_files(ctx.repo, ctx.head) if ctx.is_test_file(p)]
    if path.endswith(".go"):
        directory = posixpath.dirname(path)
        return sorted(p for p in tests if p.endswith("_test.go")
                      and posixpath.dirname(p) == directory)
    same = ".py" if path.endswith(".py") else None
    candidates = [p for p in tests if (p.endswith(".py") if same else not p.endswith(".py"))]
    name = re.compile(rb"\b" + re.escape(module_name(path).encode()) + rb"\b")
    texts = ctx.read(ctx.head, candidates)
    return sorted(p for p in candidates if (texts[p] or b"") and name.search(texts[p] or b""))
