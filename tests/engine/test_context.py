"""What every diff check is given: which files are the project's own code."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change
from helpers.go_module import patched_dependency, requiring

from gate.checks import escapes
from gate.engine import config
from gate.engine.context import DiffContext
from gate.vcs import diff


def context(tmp_path: Path, base: dict[str, str | None],
            head: dict[str, str | None]) -> DiffContext:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    return DiffContext(repo=str(repo.path), base=base_sha, head=head_sha,
                       config=config.Config(),
                       files=diff.changed_files(str(repo.path), base_sha, head_sha))


NOLINT = "\nfunc Unused() {} //nolint:unused\n"


def test_a_module_copy_a_replace_points_at_is_the_projects_own_code(tmp_path: Path) -> None:
    """third_party/mathx is someone else's code until go.mod's `replace` builds it in place of
    the dependency: then its escapes are the change's."""
    head = patched_dependency()
    head["third_party/mathx/mathx.go"] = (head["third_party/mathx/mathx.go"] or "") + NOLINT
    ctx = context(tmp_path, requiring(), head)
    assert (ctx.is_vendored("third_party/mathx/mathx.go"),
            ctx.is_generated("third_party/mathx/mathx.go")) == (False, False)
    assert [(f.path, f.rule) for f in escapes.run(ctx).findings] == [
        ("third_party/mathx/mathx.go", "nolint")]


def test_without_a_replace_third_party_is_vendored(tmp_path: Path) -> None:
    head = {"third_party/mathx/mathx.go": "package mathx\n" + NOLINT}
    ctx = context(tmp_path / "v", requiring(), head)
    assert ctx.is_vendored("third_party/mathx/mathx.go")
    assert escapes.run(ctx).findings == ()
