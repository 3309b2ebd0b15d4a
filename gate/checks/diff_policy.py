"""diff-policy: more changed files than allowed, changes under forbidden paths, and leftovers
(gate/checks/leftovers/). A thin list of rules; each rule's logic lives in its own module."""
from __future__ import annotations

from gate.checks import upgrade_policy
from gate.checks.common import from_findings
from gate.checks.leftovers import finder as leftovers
from gate.engine.context import DiffContext
from gate.models import CheckResult, Finding
from gate.vcs.diff import ChangedFile

ID = "diff-policy"
TITLE = "Diff within policy"
EXPLANATION = """\
Flags a change that touches more files than `max-changed-files` allows (on the first file beyond
the limit), and every file added, modified or deleted under a forbidden path (`forbidden-paths`,
by default `.github/workflows/` and `.github/actions/`). A reviewer cares because a sprawling
change cannot be reviewed line by line, and because CI definitions decide what runs on every pull
request, with secrets: an agent should not change them unasked. Resolve it by splitting the
change, or by having a person make or approve the change to the forbidden path; the limits
themselves are read from the base branch's config.

With `--upgrade NAME==VERSION` (a change meant to upgrade a package), every range in
pyproject.toml, requirements files, package.json and Cargo.toml that names the package must
admit VERSION: one that still excludes it is flagged at its line, and so is a package no
manifest names. Resolve it by widening or moving that range.

Also flags leftovers, the files a change adds that a reviewer would not merge, each with its
reason: scratch and reproduction scripts (`reproduce*.py`, `repro_*`, `scratch*` outside the
test tree; `debug_*`, `tmp_*` outside the source too; `verify_*.py`, `test.py` at the root; a
new `reproduction/` or `tmp/` directory), test files outside the project's test discovery,
backups and patches (`*.bak`, `*.orig`, `*.rej`, `*.patch`, `*~`), editor and tool artefacts
(`.DS_Store`, `*.pyc`), test and coverage reports (`junit*.xml`, `coverage.xml`, `.coverage`,
`lcov.info`), a lockfile of a package manager the project does not use (`package-lock.json`
beside the base's `pnpm-lock.yaml`), build output (`build/`, `dist/`, `*.egg-info/`,
`__pycache__/`, `node_modules/`, `target/`, `htmlcov/`, `test-results/`: one finding per
directory, with a count), files the base's `.gitignore` ignores (a notice when the change's own
edit of the ignore rules un-ignores them: committed on purpose), shell scripts nothing names
(the README, a Makefile, a Dockerfile, a workflow) and data at the root, and symlinks to a
directory of the repository or outside it.
Files under a test tree (`tests/data/...`), vendored code, and kinds of file the base already
keeps in the same directory are not leftovers. Resolve a leftover by deleting it; a person keeps
what the project means to keep with `keep = ["scripts/*"]` in the base's `[tool.gate]`, or by
approving the pull request.

An allow comment on one of the file's first three lines
(`# gate: allow diff-policy -- <why>`) counts only once a person has merged it."""


def _under(path: str, prefix: str) -> bool:
    """Whether `path` is the file or directory `prefix` names, or inside it."""
    clean = prefix[2:] if prefix.startswith("./") else prefix
    clean = clean.rstrip("/")
    return bool(clean) and (path == clean or path.startswith(clean + "/"))


def _kind(f: ChangedFile) -> str:
    return "symlink" if f.symlink else "binary file" if f.binary else "file"


def _forbidden(f: ChangedFile, prefixes: tuple[str, ...]) -> Finding | None:
    prefix = next((p for p in prefixes if _under(f.path, p)), None)
    if prefix is None:
        return None
    line = min(f.added) if f.added else 1
    return Finding(path=f.path, line=line, rule="forbidden-path", severity="error",
                   message=f"{_kind(f)} {f.status} under the forbidden path {prefix}: "
                   "a person must make or approve changes here")


def _too_many(files: list[ChangedFile], limit: int | None) -> Finding | None:
    if limit is None or len(files) <= limit:
        return None
    return Finding(path=files[limit].path, line=1, rule="max-changed-files", severity="warning",
                   message=f"{len(files)} files changed, more than the limit of {limit} "
                   "(max-changed-files): split the change so that it can be reviewed")


def run(ctx: DiffContext) -> CheckResult:
    findings = [f for f in (_forbidden(c, ctx.config.forbidden_paths) for c in ctx.files) if f]
    findings += upgrade_policy.findings(ctx, [upgrade_policy.parse_target(t)
                                              for t in ctx.upgrades])
    too_many = _too_many(ctx.files, ctx.config.max_changed_files)
    if too_many is not None:
        findings.append(too_many)
    findings.extend(leftovers.find(ctx))
    return from_findings(ID, TITLE, findings, clean="within the diff policy",
                         found="{n} diff policy finding(s)",
                         notices_only=", all allowed by comments")  # leftovers kept by comments
