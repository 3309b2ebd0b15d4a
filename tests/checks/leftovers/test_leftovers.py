"""Leftovers under diff-policy: each case a real repository with a base and a head commit, read
by `gate scan` (the config and the .gitignore come from the base)."""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate.engine import runner
from gate.models import CheckResult, Report

BASE: dict[str, str | None] = {
    "README.md": "# calc\n",
    "pyproject.toml": "[project]\nname = 'calc'\nversion = '1'\n",
    "calc/__init__.py": "",
    "calc/core.py": "def add(a, b):\n    return a + b\n",
    "tests/test_core.py": "from calc.core import add\n\n\ndef test_add():\n"
                          "    assert add(1, 2) == 3\n",
}
Row = tuple[str, int, str, str]


def _scan(repo: Repo) -> Report:
    return runner.scan(runner.Options(base="main", head="change", repo=str(repo.path)))


def _policy(report: Report) -> CheckResult:
    return next(c for c in report.checks if c.id == "diff-policy")


def _found(report: Report) -> list[Row]:
    return [(f.path, f.line, f.rule, f.severity) for f in _policy(report).findings]


def _change(tmp_path: Path, head: Mapping[str, str | None],
            base: Mapping[str, str | None] | None = None,
            extra: Callable[[Path], None] | None = None) -> Report:
    """`head` on top of `base` (BASE and the given files), `extra` writing what text cannot
    (binary files, symlinks) before the head is committed."""
    repo = Repo(tmp_path / "repo")
    repo.commit({**BASE, **(base or {})}, "base")
    repo.branch("change")
    repo.write(head)
    if extra is not None:
        extra(repo.path)
    repo.git("add", "-A")
    repo.git("add", "-f", "--", *[p for p, text in head.items() if text is not None])
    repo.git("commit", "-q", "-m", "head")
    return _scan(repo)


# Flagged, each with its reason.

def test_scratch_scripts_at_the_root(tmp_path: Path) -> None:
    report = _change(tmp_path, {"reproduce_ne.py": "print(1)\n", "debug_split.py": "x = 1\n",
                                "verify_split_super_sub.py": "x = 1\n", "Scratch.py": "x\n",
                                "check_analyzer.py": "x = 1\n",
                                "calc/core.py": "def add(a, b):\n    return b + a\n"})
    assert _found(report) == [
        ("Scratch.py", 1, "leftover-scratch", "warning"),
        ("check_analyzer.py", 1, "leftover-scratch", "warning"),
        ("debug_split.py", 1, "leftover-scratch", "warning"),
        ("reproduce_ne.py", 1, "leftover-scratch", "warning"),
        ("verify_split_super_sub.py", 1, "leftover-scratch", "warning"),
    ]
    assert report.verdict == "needs-review"
    assert _policy(report).findings[3].message == (
        "a scratch or reproduction script outside the test tree; delete it, or a person keeps "
        "it: a `keep` glob in the base's gate config, or their approval of this change")


def test_strong_scratch_names_inside_the_package_and_loose_ones_outside(tmp_path: Path) -> None:
    report = _change(tmp_path, {"calc/reproduce_bug.py": "x\n", "calc/debug_dump.py": "x\n",
                                "test.py": "print(1)\n", "tmp/try.py": "x\n",
                                "issue_42.py": "x\n"})
    assert _found(report) == [
        ("calc/reproduce_bug.py", 1, "leftover-scratch", "warning"),
        ("issue_42.py", 1, "leftover-scratch", "warning"),
        ("test.py", 1, "leftover-scratch", "warning"),
        ("tmp/try.py", 1, "leftover-scratch", "warning"),
    ]
    assert _policy(report).findings[3].message.startswith(
        "a file in the scratch directory tmp/, new in the change")


def test_editor_os_and_tool_artefacts(tmp_path: Path) -> None:
    report = _change(tmp_path, {".DS_Store": "x\n", "calc/core.pyc": "x\n",
                                "calc/.coverage": "x\n"})
    assert _found(report) == [
        (".DS_Store", 1, "leftover-artefact", "warning"),
        ("calc/.coverage", 1, "leftover-report", "warning"),
        ("calc/core.pyc", 1, "leftover-artefact", "warning"),
    ]


def test_backups_and_scratch_scripts_beside_the_test_code(tmp_path: Path) -> None:
    report = _change(tmp_path, {"tests/test_core.py.bak": "def test_old():\n    pass\n",
                                "tests/reproduce_issue.py": "x\n", "tests/.DS_Store": "x\n",
                                "tests/data/expected.orig": "x\n",
                                "tests/fixtures/repro_12.py": "x\n",
                                "tests/helpers_debug.py": "x\n",
                                "tests/test_reproduce_issue_12.py": "def test_x():\n    pass\n"})
    assert _found(report) == [
        ("tests/.DS_Store", 1, "leftover-artefact", "warning"),
        ("tests/reproduce_issue.py", 1, "leftover-scratch", "warning"),
        ("tests/test_core.py.bak", 1, "leftover-backup", "warning"),
    ]
    assert _policy(report).findings[1].message.startswith(
        "a scratch or reproduction script in the test tree, which no test run collects")


def test_a_staged_scratch_script_for_the_pre_commit_hook(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.commit(BASE, "base")
    repo.write({"reproduce.py": "print(1)\n", "calc/core.py.bak": "x\n"})
    repo.git("add", "-A")
    report = runner.scan(runner.Options(base="main", staged=True, repo=str(repo.path)))
    assert _found(report) == [("calc/core.py.bak", 1, "leftover-backup", "warning"),
                              ("reproduce.py", 1, "leftover-scratch", "warning")]


def test_a_backup_and_patch_leftovers(tmp_path: Path) -> None:
    report = _change(tmp_path, {"calc/core.py.bak": "old\n", "calc/core.py.orig": "old\n",
                                "fix.patch": "--- a\n+++ b\n", "calc/core.py.rej": "x\n",
                                "calc/core.py~": "x\n", "calc/core copy.py": "x\n",
                                "calc/core.py.old": "x\n"})
    assert _found(report) == [
        ("calc/core copy.py", 1, "leftover-backup", "warning"),
        ("calc/core.py.bak", 1, "leftover-backup", "warning"),
        ("calc/core.py.old", 1, "leftover-backup", "warning"),
        ("calc/core.py.orig", 1, "leftover-backup", "warning"),
        ("calc/core.py.rej", 1, "leftover-backup", "warning"),
        ("calc/core.py~", 1, "leftover-backup", "warning"),
        ("fix.patch", 1, "leftover-backup", "warning"),
    ]
    assert _policy(report).findings[1].message.startswith("a backup or patch leftover; delete it")


def test_57_files_of_build_output_are_one_finding(tmp_path: Path) -> None:
    head = {f"build/lib/calc/mod{i}.py": f"x = {i}\n" for i in range(57)}
    head.update({"calc.egg-info/PKG-INFO": "Name: calc\n", "calc/__pycache__/core.pyc": "x\n"})
    report = _change(tmp_path, head)
    assert _found(report) == [
        ("build/lib/calc/mod0.py", 1, "leftover-build-output", "warning"),
        ("calc.egg-info/PKG-INFO", 1, "leftover-build-output", "warning"),
        ("calc/__pycache__/core.pyc", 1, "leftover-build-output", "warning"),
    ]
    assert _policy(report).findings[0].message == (
        "build output: 57 files under build/, a directory the base does not have; delete it, "
        "or a person keeps it: a `keep` glob in the base's gate config, or their approval of "
        "this change")


def test_symlinks_to_the_root_to_a_directory_and_outside(tmp_path: Path) -> None:
    def links(root: Path) -> None:
        os.symlink(".", root / "loop")
        os.symlink("../calc", root / "calc" / "again")
        os.symlink("/etc/passwd", root / "passwd")
        os.symlink("../../outside", root / "calc" / "out")
        os.symlink("core.py", root / "calc" / "alias.py")  # a file inside: fine

    report = _change(tmp_path, {}, extra=links)
    assert _found(report) == [
        ("calc/again", 1, "leftover-symlink", "warning"),
        ("calc/out", 1, "leftover-symlink", "warning"),
        ("loop", 1, "leftover-symlink", "warning"),
        ("passwd", 1, "leftover-symlink", "warning"),
    ]
    messages = [f.message.split(";")[0] for f in _policy(report).findings]
    assert messages[2] == ("a symlink to '.', a directory of the repository: tools that walk "
                           "the tree loop or read it twice")
    assert messages[3] == ("a symlink to '/etc/passwd', outside the repository: what it reads "
                           "depends on the machine")


def test_test_files_outside_test_discovery(tmp_path: Path) -> None:
    report = _change(tmp_path, {"test_foo.py": "def test_x():\n    pass\n",
                                "reproduction/__init__.py": "assert False\n",
                                "reproduction/test_foo.py": "def test_x():\n    pass\n"})
    assert _found(report) == [
        ("reproduction/__init__.py", 1, "leftover-scratch", "warning"),
        ("reproduction/test_foo.py", 1, "leftover-scratch", "warning"),
        ("test_foo.py", 1, "leftover-stray-test", "warning"),
    ]
    assert _policy(report).findings[0].message.startswith(
        "a file in the scratch directory reproduction/, new in the change")
    assert _policy(report).findings[2].message.startswith(
        "a test file outside the project's test directories")


def test_a_test_outside_pytest_testpaths(tmp_path: Path) -> None:
    pyproject = BASE["pyproject.toml"] or ""
    report = _change(tmp_path, {"calc/test_more.py": "def test_x():\n    pass\n",
                                "tests/test_more.py": "def test_y():\n    pass\n"},
                     base={"pyproject.toml": pyproject + "[tool.pytest.ini_options]\n"
                           "testpaths = ['tests']\n", "calc/test_inline.py": ""})
    assert _found(report) == [("calc/test_more.py", 1, "leftover-stray-test", "warning")]
    assert "outside pytest's testpaths (tests): it never runs" in (
        _policy(report).findings[0].message)


def test_a_module_named_like_a_test_that_defines_none_is_no_stray_test(tmp_path: Path) -> None:
    """Seen on this project's own change: `gate/checks/harness/test_scripts.py` (a module that
    follows test commands into scripts) is named `test_*.py` outside testpaths, and holds no
    test; its twin defining a test is flagged."""
    pyproject = BASE["pyproject.toml"] or ""
    report = _change(tmp_path, {"calc/test_scripts.py": "def follow(command):\n    return []\n",
                                "calc/test_more.py": "def test_x():\n    pass\n"},
                     base={"pyproject.toml": pyproject + "[tool.pytest.ini_options]\n"
                           "testpaths = ['tests']\n"})
    assert _found(report) == [("calc/test_more.py", 1, "leftover-stray-test", "warning")]


def test_a_test_outside_the_config_test_paths(tmp_path: Path) -> None:
    pyproject = (BASE["pyproject.toml"] or "") + '[tool.gate]\ntest-paths = ["tests/*"]\n'
    report = _change(tmp_path, {"checks/test_x.py": "def test_x():\n    pass\n",
                                "tests/test_y.py": "def test_y():\n    pass\n"},
                     base={"pyproject.toml": pyproject})
    assert _found(report) == [("checks/test_x.py", 1, "leftover-stray-test", "warning")]
    assert _policy(report).findings[0].message.startswith(
        "a test file outside the config's `test-paths`: it never runs")


def test_what_the_base_gitignore_ignores_and_what_the_change_unignores(tmp_path: Path) -> None:
    report = _change(tmp_path, {".gitignore": "*.tmp\n.env\n!notes.txt\n", "notes.txt": "x\n",
                                "a.tmp": "1\n", "calc/b.tmp": "2\n", "docs/c.tmp": "3\n",
                                ".env": "TOKEN=1\n", "docs/guide.md": "# guide\n"},
                     base={".gitignore": "*.tmp\n.env\nnotes.txt\n"})
    assert _found(report) == [
        (".env", 1, "leftover-ignored", "warning"),
        ("a.tmp", 1, "leftover-ignored", "warning"),
        ("notes.txt", 1, "leftover-ignored", "notice"),  # the change's edit un-ignores it
    ]
    messages = [f.message.split(":")[0] for f in _policy(report).findings]
    assert messages == [
        "1 file that the base's .gitignore ignores (`.env`, line 2)",
        "3 files (the first of them) that the base's .gitignore ignores (`*.tmp`, line 1)",
        "1 file that the base's .gitignore ignores (`notes.txt`, line 3), un-ignored by the "
        "change's own edit of the ignore rules",
    ]


def test_data_and_shell_scripts_at_the_root(tmp_path: Path) -> None:
    def plot(root: Path) -> None:
        (root / "test_plot.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")

    report = _change(tmp_path, {"test.ecsv": "# %ECSV 1.0\na b\n", "run_repro.sh": "python x\n",
                                "docs/logo.svg": "<svg/>\n"}, extra=plot)
    assert _found(report) == [
        ("run_repro.sh", 1, "leftover-script", "warning"),
        ("test.ecsv", 1, "leftover-data", "warning"),
        ("test_plot.png", 1, "leftover-data", "warning"),
    ]
    assert [f.message.split(";")[0] for f in _policy(report).findings] == [
        "a shell script at the root that no README, Makefile or workflow names",
        "data at the root", "binary data at the root"]


# Cheats by an agent that has read the rules.

def test_a_keep_list_or_vendored_mark_added_by_the_head_keeps_nothing(tmp_path: Path) -> None:
    pyproject = (BASE["pyproject.toml"] or "") + '[tool.gate]\nkeep = ["*"]\n'
    report = _change(tmp_path, {"pyproject.toml": pyproject, "reproduce.py": "x\n",
                                ".gitattributes": "* linguist-vendored\n",
                                "README.md": "# calc\n\nRun reproduce.py to see the bug.\n"})
    assert _found(report) == [("reproduce.py", 1, "leftover-scratch", "warning")]


def test_an_allow_comment_without_a_reason_keeps_nothing(tmp_path: Path) -> None:
    report = _change(tmp_path, {"reproduce.py": "# gate: allow diff-policy\nprint(1)\n"})
    assert _found(report) == [("reproduce.py", 1, "leftover-scratch", "warning")]


def test_an_allow_comment_does_not_allow_a_forbidden_path(tmp_path: Path) -> None:
    report = _change(tmp_path, {".github/workflows/x.yml":
                                "# gate: allow diff-policy -- mine\non: push\n"})
    assert [r[2:] for r in _found(report)] == [("forbidden-path", "error")]


# Honest twins: nothing to say.

@pytest.mark.parametrize(("name", "head", "base"), [
    ("documented scripts/ tool", {"scripts/debug_wheel.sh": "#!/bin/sh\n",
                                  "README.md": "# calc\n\n`scripts/debug_wheel.sh` shows a "
                                  "wheel's files.\n"}, {}),
    ("documented root script", {"bootstrap.sh": "#!/bin/sh\n",
                                "README.md": "# calc\n\nRun ./bootstrap.sh first.\n"}, {}),
    ("a root script the Dockerfile runs", {"entrypoint.sh": "#!/bin/sh\n",
                                           "Dockerfile": "FROM python\nENTRYPOINT "
                                           "[\"/app/entrypoint.sh\"]\n"}, {}),
    ("data under tests/data", {"tests/data/sample.fits": "SIMPLE = T\n",
                               "tests/data/expected.orig": "x\n",
                               "tests/data/repro_123.py": "x = 1\n"}, {}),
    ("a module of the package", {"calc/debug_utils.py": "def dump():\n    pass\n",
                                 "calc/reprojection.py": "x = 1\n"}, {}),
    ("a name that only starts like repro", {"reprojection.py": "x = 1\n"}, {}),
    ("what the base keeps at the root", {"more.csv": "a,b\n", "deploy.sh": "x\n"},
     {"data.csv": "a\n", "build.sh": "x\n"}),
    ("a dist/ the base commits", {"dist/calc.js": "x\n"}, {"dist/old.js": "y\n"}),
    ("patches in a patches/ directory", {"patches/0001-fix.patch": "--- a\n"}, {}),
    ("a new test in the test tree", {"tests/test_more.py": "def test_y():\n    pass\n"}, {}),
    ("a scratch file edited, not added", {"debug_x.py": "x = 2\n"}, {"debug_x.py": "x = 1\n"}),
    ("not ignored at base", {"notes.txt": "x\n", ".gitignore": "*.tmp\nnotes.txt\n"},
     {".gitignore": "*.tmp\n"}),
])
def test_honest_additions(tmp_path: Path, name: str, head: dict[str, str | None],
                          base: dict[str, str | None]) -> None:
    report = _change(tmp_path, head, base=base)
    assert _found(report) == [], name
    assert _policy(report).status == "passed"


def test_a_vendored_file_the_config_names(tmp_path: Path) -> None:
    pyproject = (BASE["pyproject.toml"] or "") + '[tool.gate]\nkeep = ["extern/*"]\n'
    head: dict[str, str | None] = {"extern/zlib/dist/zlib.js": "x\n",
                                   "extern/zlib/0001-fix.patch": "--- a\n"}
    assert _found(_change(tmp_path / "kept", head, base={"pyproject.toml": pyproject})) == []
    assert [r[2] for r in _found(_change(tmp_path / "not", head))] == [
        "leftover-backup", "leftover-build-output"]


def test_a_vendored_file_marked_at_base(tmp_path: Path) -> None:
    report = _change(tmp_path, {"extern/zlib/zlib.c.orig": "x\n"},
                     base={".gitattributes": "extern/** linguist-vendored\n"})
    assert _found(report) == []


def test_a_scripts_own_allow_comment_keeps_nothing(tmp_path: Path) -> None:
    """The file the change adds waives itself: a person must keep it, the reason shown."""
    report = _change(tmp_path, {"reproduce.py": "#!/usr/bin/env python\n"
                                "# gate: allow diff-policy -- the issue's reproducer, run by CI\n"
                                "print(1)\n"})
    assert _found(report) == [("reproduce.py", 2, "leftover-scratch", "warning")]
    assert _policy(report).findings[0].message.endswith(
        "its reason: the issue's reproducer, run by CI)")
    assert report.verdict == "needs-review"  # and escapes reads `diff-policy` as allowable


def test_the_users_own_excludes_are_not_the_project_s(tmp_path: Path) -> None:
    def exclude(root: Path) -> None:
        (root / ".git" / "info" / "exclude").write_text("notes.txt\n")

    report = _change(tmp_path, {"notes.txt": "x\n", "calc/local.cfg": "x\n"},
                     base={".gitignore": "*.tmp\n", "calc/.gitignore": "local.cfg\n"},
                     extra=exclude)
    assert _found(report) == [("calc/local.cfg", 1, "leftover-ignored", "warning")]
    assert "the base's calc/.gitignore ignores (`local.cfg`, line 1)" in (
        _policy(report).findings[0].message)
