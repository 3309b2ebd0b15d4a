"""`fixture-injected`: a fixture the change adds to a module of the code that a conftest of the
base imports with `*` (`from calc import *`). The conftest takes it as its own: it reaches every
test under that conftest, the base's among them in base-tests, and overrides a fixture of the
same name from pytest or a plugin (`tmp_path`, `caplog`). base-tests puts test code back, never
code, so the fixture stays: a head that moves a weakened fixture there is seen here. A module
that already defines fixtures at base is a test helper (`gate.lang.pytest_helpers`), put back
by base-tests; a hook is `pytest-hook`'s."""
from __future__ import annotations

import ast

from gate.engine.context import DiffContext
from gate.lang import pytest_helpers
from gate.models import Finding
from gate.vcs import git


def _fixtures(text: str | None) -> dict[str, int]:
    try:
        return pytest_helpers.fixtures_defined(ast.parse(text or ""))
    except (SyntaxError, ValueError):
        return {}


def findings(ctx: DiffContext) -> list[Finding]:
    changed = [f.path for f in ctx.files if f.path.endswith(".py") and f.new_lines
               and f.status != "deleted" and not ctx.is_test_code(f.path)]
    if not changed:
        return []
    starred = pytest_helpers.star_imported(
        lambda paths: ctx.read(ctx.base, paths), git.ls_files(ctx.repo, ctx.base),
        ctx.pytest_config(ctx.base).python_files)
    out = []
    for path in (p for p in changed if p in starred):
        before = _fixtures(ctx.text(ctx.base, path))
        out += [Finding(path, line, "fixture-injected",
                        f"defines the fixture `{name}` in code that {starred[path]} imports "
                        "with `*`: it becomes that conftest's fixture for every test under it "
                        "(the base's too, in base-tests, which puts tests back, not code)",
                        "warning")
                for name, line in sorted(_fixtures(ctx.text(ctx.head, path)).items())
                if name not in before]
    return out
