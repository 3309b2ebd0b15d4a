"""check-config on .pre-commit-config.yaml: hooks removed, run at fewer stages or on fewer files."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.configcheck import found
from helpers.gitrepo import make_change

from gate.checks.check_config import check as check_config
from gate.engine import config
from gate.engine.context import DiffContext
from gate.vcs import diff, git

CONFIG = """\
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.6.0
    hooks:
      - id: ruff
      - id: ruff-format
  - repo: local
    hooks:
      - id: pytest
        name: pytest
        entry: pytest -q
        language: system
        pass_filenames: false
        types: [python]
"""
FILES = {"src/app.py": "x = 1\n", "tests/test_app.py": "def test_x():\n    pass\n",
         "docs/index.md": "# docs\n"}
PATH = ".pre-commit-config.yaml"


def _run(tmp_path: Path, head: str) -> list[tuple[int, str, str]]:
    return found(tmp_path, {**FILES, PATH: CONFIG}, {PATH: head})


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("      - id: ruff-format\n", "", 1, "hook `ruff-format` removed"),
    ("      - id: ruff\n", "      - id: ruff\n        stages: [manual]\n", 6,
     'hook `ruff`: stages (unset) -> ["manual"]: it no longer runs at pre-commit'),
    ("      - id: ruff\n", "      - id: ruff\n        exclude: ^tests/\n", 6,
     'hook `ruff`: exclude (unset) -> "^tests/": no longer checks tests/test_app.py'),
    ("        types: [python]\n", "        types: [python]\n        files: ^src/\n", 15,
     'hook `pytest`: files (unset) -> "^src/": no longer checks tests/test_app.py'),
    ("        types: [python]\n", "        types: [python, executable]\n", 14,
     'hook `pytest`: types ["python"] -> ["python", "executable"]: it checks fewer files'),
    ("repos:\n", "exclude: ^(src|tests)/\nrepos:\n", 1,
     'top level: exclude (unset) -> "^(src|tests)/": no hook checks src/app.py (and 1 more)'),
    ("repos:\n", "ci:\n  skip: [pytest]\nrepos:\n", 2,
     "hook `pytest` added to ci.skip: pre-commit.ci no longer runs it"),
    ("        entry: pytest -q\n", "        entry: pytest -q tests/test_app.py\n", 11,
     'hook `pytest`: entry "pytest -q" -> "pytest -q tests/test_app.py": it runs another '
     "command"),
    ("      - id: ruff\n", "      - id: ruff\n        args: [--exit-zero]\n", 6,
     'hook `ruff`: args (unset) -> ["--exit-zero"] (--exit-zero added): it may check less'),
], ids=["removed", "stages", "exclude", "files", "types", "top-level-exclude", "ci-skip",
        "entry", "args-exit-zero"])
def test_hook_weakened(tmp_path: Path, old: str, new: str, line: int, message: str) -> None:
    head = CONFIG.replace(old, new)
    assert head != CONFIG
    assert _run(tmp_path, head) == [(line, "pre-commit-config", message)]


def test_exclude_widened(tmp_path: Path) -> None:
    base = CONFIG.replace("      - id: ruff\n", "      - id: ruff\n        exclude: ^docs/\n")
    head = base.replace("^docs/", "^(docs|tests)/")
    assert found(tmp_path, {**FILES, PATH: base}, {PATH: head}) == [
        (6, "pre-commit-config", 'hook `ruff`: exclude "^docs/" -> "^(docs|tests)/": '
         "no longer checks tests/test_app.py")]


@pytest.mark.parametrize("head", [
    # a version bump, a new hook, a hook moved to the repository's new name
    CONFIG.replace("v0.6.0", "v0.7.0") + "      - id: mypy\n        entry: mypy\n"
    "        language: system\n",
    CONFIG.replace("astral-sh/ruff-pre-commit", "charliermarsh/ruff-pre-commit"),
    # stages the config does not install; a narrower exclude; a pattern that leaves out no file
    CONFIG.replace("      - id: ruff\n", "      - id: ruff\n        stages: [pre-commit]\n"),
    CONFIG.replace("      - id: ruff\n", "      - id: ruff\n        exclude: ^build/\n"),
    # files it leaves out are not Python files, which the hook never saw
    CONFIG.replace("        types: [python]\n",
                   "        types: [python]\n        files: ^(src|tests)/\n"),
    # the same values, reformatted, with comments
    "# hooks\nrepos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.6.0\n"
    "  hooks: [{id: ruff}, {id: ruff-format}]\n- repo: local\n  hooks:\n  - {id: pytest, "
    "name: pytest, entry: pytest -q, language: system, pass_filenames: false, "
    "types: [python]}\n",
], ids=["added-and-bumped", "repo-renamed", "stage-installed", "exclude-no-file",
        "files-other-types", "reformatted"])
def test_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    assert _run(tmp_path, head) == []


WITH_ARGS = CONFIG.replace("      - id: ruff\n",
                           "      - id: ruff\n        args: [--fix, --select=EFB]\n")


@pytest.mark.parametrize(("head", "message"), [
    (WITH_ARGS.replace("--fix, --select=EFB", "--fix"),
     'hook `ruff`: args ["--fix", "--select=EFB"] -> ["--fix"] (--select=EFB removed): '
     "it may check less"),
    (WITH_ARGS.replace("--fix, ", "--fix, --ignore=B006, "),
     'hook `ruff`: args ["--fix", "--select=EFB"] -> ["--fix", "--ignore=B006", '
     '"--select=EFB"] (--ignore=B006 added): it may check less'),
    (WITH_ARGS.replace("--select=EFB", "--select=E"),
     'hook `ruff`: args ["--fix", "--select=EFB"] -> ["--fix", "--select=E"] '
     "(--select=EFB removed; --select=E added): it may check less"),
], ids=["select-removed", "ignore-added", "select-narrowed"])
def test_args_loosened(tmp_path: Path, head: str, message: str) -> None:
    assert found(tmp_path, {**FILES, PATH: WITH_ARGS}, {PATH: head}) == [
        (6, "pre-commit-config", message)]


GATE_HOOKS = """\
repos:
  - repo: https://github.com/OWNER/gate
    rev: v0.1.0
    hooks:
      - id: gate-scan
        args: [--strict]
      - id: gate
"""


@pytest.mark.parametrize(("head", "line", "message"), [
    (GATE_HOOKS.replace("      - id: gate\n", "      - id: gate\n        args: [--runs, '1']\n"),
     8, 'hook `gate`: args (unset) -> ["--runs", "1"] (--runs added): it may check less'),
    (GATE_HOOKS.replace("      - id: gate\n", "      - id: gate\n        args: [--runs=1]\n"),
     8, 'hook `gate`: args (unset) -> ["--runs=1"] (--runs=1 added): it may check less'),
    (GATE_HOOKS.replace("        args: [--strict]\n", ""),
     5, 'hook `gate-scan`: args ["--strict"] -> (unset) (--strict removed): it may check less'),
], ids=["runs-added", "runs-equals-added", "strict-removed"])
def test_the_gates_own_hook_args_weakened(tmp_path: Path, head: str, line: int,
                                          message: str) -> None:
    """The hooks pass `args:` to the gate: a head that lowers its runs or drops --strict
    weakens the gate that judges pushes from the machine it runs on."""
    assert found(tmp_path, {**FILES, PATH: GATE_HOOKS}, {PATH: head}) == [
        (line, "pre-commit-config", message)]


@pytest.mark.parametrize("head", [
    WITH_ARGS.replace("--fix, ", "--fix, --strict, "),  # checks more
    WITH_ARGS.replace("[--fix, --select=EFB]", "\n          - --fix\n"
                      "          - --select=EFB"),  # the same list, written as a block
    WITH_ARGS.replace("--fix, --select=EFB", "--select=EFB, --fix"),  # reordered
], ids=["strict-added", "reformatted", "reordered"])
def test_args_that_check_as_much_raise_nothing(tmp_path: Path, head: str) -> None:
    assert found(tmp_path, {**FILES, PATH: WITH_ARGS}, {PATH: head}) == []


def test_exclude_narrowed_raises_nothing(tmp_path: Path) -> None:
    base = CONFIG.replace("      - id: ruff\n",
                          "      - id: ruff\n        exclude: ^(docs|tests)/\n")
    head = base.replace("^(docs|tests)/", "^docs/")
    assert found(tmp_path, {**FILES, PATH: base}, {PATH: head}) == []


def test_stage_lost_among_installed_hook_types(tmp_path: Path) -> None:
    base = "default_install_hook_types: [pre-commit, pre-push]\n" + CONFIG
    head = base.replace("      - id: ruff\n", "      - id: ruff\n        stages: [commit]\n")
    assert found(tmp_path, {**FILES, PATH: base}, {PATH: head}) == [
        (7, "pre-commit-config",
         'hook `ruff`: stages (unset) -> ["commit"]: it no longer runs at pre-push')]


def test_staged_change_is_judged_on_the_files_of_the_index(tmp_path: Path) -> None:
    repo, base_sha, _ = make_change(tmp_path / "repo", {**FILES, PATH: CONFIG}, {})
    repo.write({PATH: CONFIG.replace("      - id: ruff\n",
                                     "      - id: ruff\n        exclude: ^lib/\n"),
                "lib/new.py": "y = 2\n"})
    repo.git("add", "-A")
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=git.INDEX, config=config.Config(),
                      files=diff.staged_files(str(repo.path), base_sha))
    assert [(f.line, f.message) for f in check_config.run(ctx).findings] == [
        (6, 'hook `ruff`: exclude (unset) -> "^lib/": no longer checks lib/new.py')]


def test_a_hook_renamed_in_its_repository_is_the_same_hook(tmp_path: Path) -> None:
    """pypa/setuptools' bump of ruff-pre-commit renamed its hook `ruff` to `ruff-check`: not a
    hook removed. A hook of another name at the same place is judged as the same hook."""
    bumped = CONFIG.replace("v0.6.0", "v0.15.0").replace("- id: ruff\n", "- id: ruff-check\n")
    assert _run(tmp_path, bumped) == []
    swapped = CONFIG.replace("      - id: pytest\n        name: pytest\n        entry: pytest -q\n",
                             "      - id: tests\n        name: tests\n        entry: 'true'\n")
    assert _run(tmp_path / "2", swapped) == [
        (11, "pre-commit-config",
         'hook `pytest`: entry "pytest -q" -> "true": it runs another command')]
