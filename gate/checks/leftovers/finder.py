"""Leftovers in a change: the added files that a reviewer would not merge, each with its
reason, less what the project means to keep (its `keep` globs, read from the base, an allow
comment on a file's first lines, what the base already keeps in the same place)."""
from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Iterable, Sequence

from gate.checks import allow
from gate.checks.leftovers import rules
from gate.engine.context import DiffContext
from gate.lang import generated, testdefs, testfiles
from gate.lang.languages import JAVASCRIPT_FAMILY
from gate.models import Finding
from gate.vcs import attributes, git, ignore
from gate.vcs.diff import ChangedFile

CHECK_ID = "diff-policy"
ALLOW_LINES = (1, 2, 3)  # where an allow comment for a whole file is read (after a shebang)
KEEP_NOTE = ("delete it, or a person keeps it: a `keep` glob in the base's gate config, or their "
             "approval of this change")
DOCS = (".md", ".rst", ".txt", ".adoc")
# Root files that name the scripts a project runs (besides its README).
RUNNERS = ("Makefile", "makefile", "GNUmakefile", "Dockerfile", "docker-compose.yml",
           "compose.yaml", "package.json", "pyproject.toml", "tox.ini", "setup.cfg",
           "noxfile.py", "justfile", "Taskfile.yml", ".pre-commit-config.yaml")


@dataclasses.dataclass(frozen=True)
class Layout:
    """The base's tree, as far as the exceptions need it."""

    dirs: frozenset[str]  # every directory that holds a tracked file ("" the root)
    kinds: frozenset[tuple[str, str]]  # (directory, extension) of every tracked file
    loose_tests: frozenset[str]  # extensions of test files kept outside any test tree
    tests: frozenset[str]  # extensions of test files anywhere


def _parents(path: str) -> Iterable[str]:
    parts = path.split("/")
    return ("/".join(parts[:i]) for i in range(len(parts)))


def _ext(path: str) -> str:
    return posixpath.splitext(path)[1].lower()


def _looks_like_test(path: str, python_files: Sequence[str]) -> bool:
    stem, ext = posixpath.splitext(posixpath.basename(path))
    if ext == ".py":
        return testfiles.is_python_test(path, python_files)
    return ext in JAVASCRIPT_FAMILY and stem.endswith((".test", ".spec"))


def layout(files: list[str], python_files: Sequence[str]) -> Layout:
    dirs = {d for f in files for d in _parents(f)}
    tests = [f for f in files if _looks_like_test(f, python_files)]
    return Layout(frozenset(dirs), frozenset((posixpath.dirname(f), _ext(f)) for f in files),
                  frozenset(_ext(t) for t in tests if testfiles.test_tree(t) is None),
                  frozenset(_ext(t) for t in tests))


class Survey:
    """One change's added files, read against the base's layout."""

    def __init__(self, ctx: DiffContext) -> None:
        self.ctx = ctx
        self.base_files = git.ls_files(ctx.repo, ctx.base)
        self.python_files = ctx.pytest_config(ctx.base).python_files
        self.base = layout(self.base_files, self.python_files)
        self.base_set = frozenset(self.base_files)
        self.deleted = frozenset(f.path for f in ctx.files if f.status == "deleted")
        self._names: frozenset[str] | None = None
        self._docs: str | None = None
        self._head_dirs: frozenset[str] | None = None

    def documented(self, path: str) -> bool:
        """Whether the head's README, a root file that runs commands (Makefile, Dockerfile,
        package.json...), a CI workflow or a document the change touches names the file."""
        if self._docs is None:
            readmes = [p for p in git.ls_files(self.ctx.repo, self.ctx.head)
                       if ("/" not in p and (p.upper().startswith("README") or p in RUNNERS))
                       or p.startswith(".github/workflows/")]
            touched = [f.path for f in self.ctx.files
                       if f.status != "deleted" and f.path.endswith(DOCS)]
            blobs = self.ctx.read(self.ctx.head, list(dict.fromkeys(readmes + touched)))
            self._docs = "\n".join(b.decode("utf-8", "replace") for b in blobs.values() if b)
        return path in self._docs or posixpath.basename(path) in self._docs

    def base_has(self, name: str) -> bool:
        """Whether the base tracks a file of this name anywhere (a committed report it keeps)."""
        if self._names is None:
            self._names = frozenset(posixpath.basename(p) for p in self.base_files)
        return name in self._names

    def head_dirs(self) -> frozenset[str]:
        if self._head_dirs is None:
            head = git.ls_files(self.ctx.repo, self.ctx.head)
            self._head_dirs = frozenset(d for f in head for d in _parents(f))
        return self._head_dirs

    def kept_here(self, path: str) -> bool:
        """Whether the base keeps files of this kind in the same directory."""
        return (posixpath.dirname(path), _ext(path)) in self.base.kinds

    def exempt(self, path: str) -> bool:
        """Kept by the project: its `keep` globs, or vendored code (by path or the base's
        .gitattributes; node_modules is build output, not vendored)."""
        if generated.is_vendored(path) and "node_modules" not in path.split("/")[:-1]:
            return True
        marks = self.ctx.attributes(self.ctx.base)
        if marks and attributes.marked(marks, path, attributes.VENDORED):
            return True
        return bool(self.ctx.config.keep) and rules.kept(path, self.ctx.config.keep)


def _foreign_lockfile(survey: Survey, path: str) -> str | None:
    """A lockfile of a package manager the project does not use: the base locks the same
    kind of dependencies, in the same directory, with another manager, and keeps it."""
    name = posixpath.basename(path)
    if name not in rules.LOCKFILES:
        return None
    manager, family = rules.LOCKFILES[name]
    where = posixpath.dirname(path)
    for other, (theirs, kin) in rules.LOCKFILES.items():
        kept = posixpath.join(where, other)
        if kin == family and theirs != manager and kept in survey.base_set \
                and kept not in survey.deleted:
            return (f"a {manager} lockfile in a project that uses {theirs} ({kept} at the "
                    "base): a second package manager's lockfile, which installs nothing here")
    return None


def _symlink(survey: Survey, f: ChangedFile) -> str | None:
    blob = survey.ctx.read(survey.ctx.head, [f.path])[f.path]
    target = (blob or b"").decode("utf-8", "replace")
    where = posixpath.normpath(posixpath.join(posixpath.dirname(f.path), target))
    if target.startswith("/") or where == ".." or where.startswith("../"):
        return f"a symlink to {target!r}, outside the repository: what it reads depends on " \
               "the machine"
    if where == "." or where in survey.head_dirs():
        return f"a symlink to {target!r}, a directory of the repository: tools that walk " \
               "the tree loop or read it twice"
    return None


def _stray_test(survey: Survey, path: str) -> str | None:
    ctx = survey.ctx
    if not _looks_like_test(path, survey.python_files) or testfiles.test_tree(path) is not None:
        return None
    text = ctx.text(ctx.head, path)
    if text is None or not testdefs.extract(path, text).defs:
        return None  # named like a test, defines none: a module (`checks/test_helpers.py`)
    if ctx.config.test_paths:
        found = ctx.is_test_file(path)
        return None if found else "a test file outside the config's `test-paths`: it never runs"
    testpaths = ctx.pytest_config(ctx.base).options.get("testpaths")
    if path.endswith(".py") and testpaths:
        roots = testpaths.split() if isinstance(testpaths, str) else list(testpaths)
        if any(path.startswith(r.rstrip("/") + "/") for r in roots):
            return None
        return f"a test file outside pytest's testpaths ({' '.join(roots)}): it never runs"
    ext = _ext(path)
    if ext in survey.base.tests and ext not in survey.base.loose_tests:
        return ("a test file outside the project's test directories: a stray copy, or a test "
                "that runs as something else")
    return None


def _scratch(survey: Survey, path: str) -> str | None:
    found = rules.scratch_part(path)
    if found is None:
        return None
    part, strong = found
    if part != path:
        return None if part in survey.base.dirs else \
            f"a file in the scratch directory {part}/, new in the change"
    directory = posixpath.dirname(path)
    if rules.in_script_dir(path):  # a project's tools: kept when documented
        loose = not survey.documented(path)
    else:
        loose = strong or directory == "" or directory not in survey.base.dirs
    return "a scratch or reproduction script outside the test tree" if loose else None


def _backup(survey: Survey, path: str) -> bool:
    """A backup or patch, unless the base keeps files with its suffix (`.patch`) there or it
    lies in a `patches/` directory."""
    if not rules.is_backup(path) or "patches" in path.split("/")[:-1]:
        return False
    by_suffix = rules.is_backup("x" + _ext(path))  # `x.orig`, not `core copy.py`
    return not (by_suffix and survey.kept_here(path))


def reason(survey: Survey, f: ChangedFile) -> tuple[str, str] | None:
    """Why an added file (outside build output) is a leftover: (rule, reason), or None."""
    path = f.path
    if f.symlink:
        why = _symlink(survey, f)
        return ("leftover-symlink", why) if why else None
    if rules.is_artefact(path):
        return "leftover-artefact", "a file an editor, the OS or a tool left behind"
    if rules.is_report(path) and not survey.base_has(posixpath.basename(path)) and not (
            testfiles.test_tree(path) is not None and rules.in_data_dir(path)):
        return "leftover-report", "a test or coverage report, written by a run of the tests"
    lockfile = _foreign_lockfile(survey, path)
    if lockfile is not None:
        return "leftover-lockfile", lockfile
    in_tests = testfiles.test_tree(path) is not None
    if in_tests and rules.in_data_dir(path):
        return None  # what the tests read is the tests' business
    if _backup(survey, path):
        return "leftover-backup", "a backup or patch leftover"
    found = rules.scratch_part(path)
    if in_tests:  # beside the test code: only what no test run reads
        if found is not None and found[1] and found[0] == path:
            return "leftover-scratch", "a scratch or reproduction script in the test tree, " \
                "which no test run collects"
        return None
    why = _scratch(survey, path) or _stray_test(survey, path)
    if why:
        return ("leftover-stray-test" if why.startswith("a test") else "leftover-scratch"), why
    if "/" in path or survey.kept_here(path):
        return None
    if rules.is_shell(path) and not survey.documented(path):
        return "leftover-script", ("a shell script at the root that no README, Makefile or "
                                   "workflow names")
    if f.binary or rules.is_data(path):
        return "leftover-data", "binary data at the root" if f.binary else "data at the root"
    return None


def _allowed(survey: Survey, finding: Finding, f: ChangedFile) -> Finding:
    if f.binary or f.symlink:
        return finding
    for line in ALLOW_LINES:
        found = allow.at(survey.ctx, f.path, line)
        if found is not None and found.check == CHECK_ID and found.reason:
            return allow.waived(survey.ctx, dataclasses.replace(finding, line=line), found, line)
    return finding


def _finding(path: str, rule: str, message: str) -> Finding:
    return Finding(path=path, line=1, rule=rule, severity="warning",
                   message=f"{message}; {KEEP_NOTE}")


def _counted(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def find(ctx: DiffContext) -> list[Finding]:
    """Every leftover of the change: one finding per file, one per directory of build output
    and one per .gitignore rule that ignores new files."""
    added = [f for f in ctx.files if f.status == "added"]
    if not added:
        return []
    survey = Survey(ctx)
    added = [f for f in added if not survey.exempt(f.path)]
    builds: dict[str, list[str]] = {}
    findings: list[Finding] = []
    rest: list[str] = []
    for f in added:
        directory = rules.build_dir(f.path)
        if directory is not None and directory not in survey.base.dirs:
            builds.setdefault(directory, []).append(f.path)
            continue
        why = reason(survey, f)
        if why is not None:
            findings.append(_allowed(survey, _finding(f.path, *why), f))
        elif testfiles.test_tree(f.path) is None and not f.symlink:
            rest.append(f.path)
    for directory, paths in builds.items():
        findings.append(_finding(min(paths), "leftover-build-output",
                                 f"build output: {_counted(len(paths))} under {directory}/, a "
                                 "directory the base does not have"))
    findings.extend(_ignored(ctx, survey, rest))
    return findings


def _ignored(ctx: DiffContext, survey: Survey, paths: list[str]) -> list[Finding]:
    """Added files that the base's .gitignore files ignore, one finding per rule: a warning,
    or a notice where the change itself edits the rules so that they no longer ignore them
    (a lockfile committed on purpose): it says what the change un-ignored."""
    matched = ignore.ignored(ctx.repo, ctx.base, survey.base_files, paths)
    edited = any(posixpath.basename(f.path) == ".gitignore" for f in ctx.files)
    still = (ignore.ignored(ctx.repo, ctx.head, git.ls_files(ctx.repo, ctx.head), list(matched))
             if edited and matched else matched)
    by_rule: dict[tuple[ignore.Match, bool], list[str]] = {}
    for path, match in matched.items():
        by_rule.setdefault((match, path not in still), []).append(path)
    out = []
    for (match, unignored), paths in by_rule.items():
        first = " (the first of them)" if len(paths) > 1 else ""
        said = f"{_counted(len(paths))}{first} that the base's {match.source} ignores " \
               f"(`{match.pattern}`, line {match.line})"
        if unignored:
            out.append(Finding(min(paths), 1, "leftover-ignored", severity="notice",
                               message=f"{said}, un-ignored by the change's own edit of the "
                               "ignore rules: committed on purpose"))
        else:
            out.append(_finding(min(paths), "leftover-ignored",
                                f"{said}: git adds such files only when forced"))
    return out
