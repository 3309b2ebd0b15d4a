"""harness: nothing outside the tests changes how the tests run. The static part reads the
diff; `merge` adds what the install left behind, found by the runtime (see `leftovers`)."""
from __future__ import annotations

import posixpath
import re

from gate.checks.common import from_findings
from gate.checks.harness import (
    bytecode,
    command_scripts,
    go_reach,
    injected,
    js_reach,
    packaging,
    python_reach,
    rust_reach,
)
from gate.engine.context import DiffContext
from gate.lang import testfiles
from gate.models import CheckResult, Finding
from gate.vcs import git
from gate.vcs.diff import ChangedFile

ID = "harness"
TITLE = "Nothing outside the tests changes how the tests run"
EXPLANATION = """\
The tests can be made to pass without touching a test: by code that loads with them. This check
flags, each at its line, what the change adds outside the test files that can change how tests run
(base-tests cannot undo it: it puts the base's tests back, not the base's package). Packaging
hooks: `test-plugin-entry-point`, a new or changed pytest plugin registered by the package
(`[project.entry-points.pytest11]`, Poetry and Flit plugin tables, setup.cfg
`[options.entry_points]`, setup.py `entry_points`), which the gate's own install puts in the
environment; `build-backend`, a changed build backend or in-tree `backend-path`; `setup-cmdclass`,
a new or changed setup.py install command; `site-hook-file`, a `.pth`, `sitecustomize.py` or
`usercustomize.py` file, run at every interpreter start; `setup-writes-site`, setup.py code that
names `.pth` files or site-packages; `binary-python`, a `.pyc` without its source beside it or not
compiled from it, or a compiled extension (`.so`, `.pyd`, imported before a `.py` of the same
name): what runs is not in the diff. Code reaching into a test framework, read as code, never in
strings or comments: `framework-patched`, an assignment, `setattr` or `del` into pytest, `_pytest`,
`unittest` or `pluggy` (or, in JavaScript and TypeScript production code, a touch of `jest.*`,
`vi.*` or a runner global); `builtins-patched`, into `builtins` or `__builtins__` (rebinding
`AssertionError`); `sys-modules-swap`, a test or framework module replaced in `sys.modules` --
these three anywhere outside test files, conftest.py and `tests/__init__.py` included; and, in code
under test only: `framework-internals`, an import of `_pytest` or `unittest`'s internal modules
(`vitest`, `node:test`, `@jest/globals` in production JS); `pytest-hook`, a `pytest_*` hook defined
outside the tests; `test-run-detected`, code asking whether it runs under a test or under the gate
(`PYTEST_CURRENT_TEST`, `GATE_*`, `"pytest" in sys.modules`, `JEST_WORKER_ID`, its callers' frames
read beside a test's name; in JavaScript and TypeScript `VITEST`, `NODE_ENV` compared with "test",
`process.argv` beside a runner's name, its own stack read beside a test file's name or searched,
`prepareStackTrace`; Go's `testing.Testing()`, `flag.Lookup("test.v")`, `os.Args[0]` held against
`.test` or the binary run again; Rust's `cfg!(test)` at run time or one function under both
`cfg(test)` and `cfg(not(test))`; `/proc/1`, `bwrap` or the varied run's `/etc/faketimerc`
named, today's date compared with a fixed one); `ci-env-read`, code reading `CI` (the gate runs
the tests with `CI=true`); `always-equal`, an `__eq__` that answers True (or `__ne__` False)
whatever it is given, so that every `assert x == expected` passes. The scripts the test command
runs (the base's test
command, its Makefile's `test` and `check` recipes, its package.json test scripts, and the shell
scripts they name) are followed: a Python script so run is read as code under test wherever it
lies, and `test-script-env` is a shell script so run that sets what the runner loads
(`PYTEST_PLUGINS`, `PYTEST_ADDOPTS`, `PYTHONPATH`, `LD_PRELOAD`, `NODE_OPTIONS`, `pytest -p`).
`fixture-injected`: a fixture added to a module of the code that a conftest of the base imports
with `*`: it becomes that conftest's fixture for every test under it, the base's in base-tests too
(which puts tests back, never code), and overrides pytest's or a plugin's of the same name. The
package's own test helpers (a module the base's tests load as a pytest plugin or take fixtures
from) are read as conftest.py is. After the install (`gate run` only): `install-left-files`, files
git does not track that the install wrote into the checkout where a runner loads them (conftest.py,
pytest.ini, an `__init__.py` under a test path, a jest or vitest config); `install-site-hook`, a
`.pth` or `sitecustomize` in the fresh environment that no installed package's RECORD lists
(written by code, not installed as a file), or that a package only the head's install brought in
ships; `install-changed-dependency`, a package in node_modules at another version than
package-lock.json pins (something the install ran replaced it); `plugin-loaded-only-at-head`, a
pytest plugin the head's test runs loaded and the base's run did not (a dependency's entry point, a
module a conftest or a `-p` option pulls in), pinned where the head names it;
`plugin-list-missing-at-head`, a head whose pytest sessions left no list of their plugins where the
base's did; `framework-changed-in-run`, a part of pytest's report and call
machinery (TestReport, CallInfo, runtestprotocol, the JUnit and terminal reporters), pluggy's hook
calling, unittest's TestCase or TestResult, or `AssertionError` that the gate's fingerprint, taken
when pytest loads its plugin and again when the session ends, found replaced, or found to be code
of the checkout (a script that patched before `pytest.main()`), and the base's run did not: found
by what the objects are, however the patch is spelt (names built at run time, a folder named
`_pytest`, bytecode only), pinned where the replacement is defined: a function counts as replaced
when its code object, defaults, closure or `__wrapped__` changed, not only when another object
stands in its place; `evidence-tampered`, a head whose runs' evidence does not hold: the outcomes
reach the gate on a channel it opened before the tests started, as they happen, and the JUnit
report the process leaves, its closing summary line and its exit status must agree with them (a
report rewritten after the session, a session that never sent its end, a line that does not read, a
message sent twice or late); `seen-at-run-time`, what the gate's audit hook (added before any code
of the checkout runs, and not removable) saw code of the change do that the base's code did not:
the framework's functions changed in place, `/proc/self`, `/proc/1` or the cgroup tree read, the
varied run's clock settings opened, the gate's own files opened, ctypes loaded (and, as notices, by
code under test: a subprocess started, `sys._getframe` called); pinned at the line that did it;
`runner-loaded`, a changed file, not a test file, that the test runner loaded around the tests,
as the gate's Node preload saw it: a file the runner's own code required (its configuration under
any name, `vite.config.js` as well as `vitest.config.ts`, a reporter, an environment, a
transformer) and what that file requires, the files Vite bundled into its config, Vitest's setup
files (even under a test directory), what Jest's runtime loads at the top (setup files). A
library that is itself a pytest plugin, with its entry point unchanged, raises nothing. Resolve it
by removing the hook, or explain in the pull request why the tests need it; a reviewer must read
what it does to a test run."""

RULES = ("test-plugin-entry-point", "build-backend", "setup-cmdclass", "site-hook-file",
         "setup-writes-site", "binary-python", "framework-patched", "builtins-patched",
         "sys-modules-swap", "framework-internals", "pytest-hook", "test-run-detected",
         "ci-env-read", "always-equal", "test-script-env", "fixture-injected",
         "install-left-files", "install-site-hook", "plugin-loaded-only-at-head",
         "plugin-list-missing-at-head", "framework-changed-in-run", "evidence-tampered",
         "seen-at-run-time", "runner-loaded", "install-changed-dependency")
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
TEST_DIRS = ("tests", "test", "testing", "__tests__", "spec", "e2e")
BENCHMARK = re.compile(r"\.bench\.[cm]?[jt]sx?$")  # vitest's benchmark files, run by `vitest bench`
RUNNER_CONFIGS = ("jest.", "vitest.", "playwright.", "karma.", ".mocharc", "ava.")
PYTHON_PACKAGING = {"pyproject.toml": packaging.pyproject, "setup.cfg": packaging.setup_cfg}


def _with_tests(ctx: DiffContext, path: str) -> bool:
    """Test files, conftest.py, the package's own test helpers (a module the base's tests load
    as a pytest plugin or take fixtures from), runner configs and anything under a test
    directory: where a test framework is at home."""
    name = posixpath.basename(path)
    return (ctx.is_test_file(path) or testfiles.is_test_infrastructure(path)
            or ctx.is_test_helper(path)
            or name.startswith(RUNNER_CONFIGS) or name.startswith(("jest", "vitest"))
            or BENCHMARK.search(name) is not None
            or any(part in TEST_DIRS for part in path.split("/")[:-1]))


def _python(ctx: DiffContext, f: ChangedFile, run_by_tests: bool) -> list[Finding]:
    """`run_by_tests`: a script the test command runs, read as code wherever it lies."""
    if not f.new_lines or (ctx.is_test_file(f.path) and not run_by_tests):
        return []  # base-tests puts the base's test files back: not this check's to read
    if not any(python_reach.MAY_REACH.search(line) for line in f.new_lines.values()):
        return []  # parsed only when an added line may hold a reach
    text = ctx.text(ctx.head, f.path) or ""
    in_code = run_by_tests or not _with_tests(ctx, f.path)
    project = packaging.project_name(ctx.text(ctx.base, "pyproject.toml"),
                                     ctx.text(ctx.base, "setup.cfg"))
    return [Finding(f.path, r.line, r.rule, r.message, "error" if r.everywhere else "warning")
            for r in python_reach.scan(text, f.new_lines, f.path, project)
            if r.everywhere or in_code]


def _javascript(ctx: DiffContext, f: ChangedFile) -> list[Finding]:
    if _with_tests(ctx, f.path):
        return []
    split = ctx.source(f.path)
    if split is None:
        return []
    return [Finding(f.path, line, rule, message, "warning")
            for line, rule, message in js_reach.scan(split, f.new_lines)]


def _rust(ctx: DiffContext, f: ChangedFile) -> list[Finding]:
    """Every .rs file may hold unit tests (`testfiles`): production code is what is outside
    the test trees (tests/, benches/, examples/, a test directory) and, in a file, outside
    its `#[cfg(test)] mod` items (`rust_reach`); a build script is no code under test."""
    parts = f.path.split("/")[:-1]
    if (any(p in TEST_DIRS or p in ("benches", "examples") for p in parts)
            or posixpath.basename(f.path) == "build.rs"):
        return []
    split, text = ctx.source(f.path), ctx.text(ctx.head, f.path)
    if split is None or text is None:
        return []
    return [Finding(f.path, line, rule, message, "warning")
            for line, rule, message in rust_reach.scan(split, text, f.new_lines)]


def _packaging(ctx: DiffContext, f: ChangedFile) -> list[Finding]:
    """The packaging files of the project, which the gate's install reads: not a package the
    tests build from their test data (pip's `tests/data/packages/*/setup.py`)."""
    name = posixpath.basename(f.path)
    if (name not in PYTHON_PACKAGING and name != "setup.py") or testfiles.test_tree(f.path):
        return []
    old, new = ctx.text(ctx.base, f.path), ctx.text(ctx.head, f.path)
    if name == "setup.py":
        return packaging.setup_py(f.path, old, new, f.new_lines)
    return PYTHON_PACKAGING[name](f.path, old, new)


def _shell(f: ChangedFile) -> list[Finding]:
    return [Finding(f.path, line, "test-script-env",
                    f"a script the test command runs sets `{what}`: it changes what the test "
                    "runner loads for every test", "warning")
            for line, what in command_scripts.shell_hooks(f.new_lines)]


def _file(ctx: DiffContext, f: ChangedFile, scripts: set[str]) -> list[Finding]:
    if packaging.is_site_file(f.path):
        return [packaging.site_file(f.path, min(f.added) if f.added else 1)]
    found = _packaging(ctx, f)
    if f.path in scripts and f.path.endswith(command_scripts.SHELL_SUFFIXES):
        found += _shell(f)
    if f.path.endswith(".py"):
        found += _python(ctx, f, f.path in scripts)
    elif f.path.endswith(JS_SUFFIXES) and f.new_lines:
        found += _javascript(ctx, f)
    elif f.path.endswith(".rs") and f.new_lines:
        found += _rust(ctx, f)
    elif f.path.endswith(".go") and f.new_lines and not _with_tests(ctx, f.path):
        found += [Finding(f.path, line, rule, message, "warning") for line, rule, message
                  in go_reach.scan(ctx.text(ctx.head, f.path) or "", f.new_lines)]
    return found


def _bytecode(ctx: DiffContext) -> list[Finding]:
    """`binary-python`: compiled Python the change adds or changes."""
    compiled = [f.path for f in ctx.files if f.status != "deleted" and not f.symlink
                and bytecode.is_binary_python(f.path) and not ctx.is_vendored(f.path)]
    if not compiled:
        return []
    blobs = ctx.read(ctx.head, compiled)
    sources = ctx.read(ctx.head, [bytecode.source_of(p) for p in compiled])
    found = ((p, bytecode.problem(p, blobs.get(p), sources)) for p in compiled)
    return [Finding(p, 1, "binary-python", why, "error") for p, why in found if why]


def run(ctx: DiffContext) -> CheckResult:
    files = [f for f in ctx.files if f.status != "deleted" and not f.binary and not f.symlink
             and not ctx.is_generated(f.path)]
    ctx.read(ctx.head, [f.path for f in files])
    scripts = command_scripts.scripts(ctx, set(git.ls_files(ctx.repo, ctx.head))) if any(
        f.path.endswith(command_scripts.SCRIPT_SUFFIXES) for f in files) else set()
    findings = [finding for f in files for finding in _file(ctx, f, scripts)] + _bytecode(
        ctx) + injected.findings(ctx)
    return from_findings(ID, TITLE, findings, clean="nothing outside the tests changes how "
                         "they run", found="{n} change(s) outside the tests that can change "
                         "how they run")

