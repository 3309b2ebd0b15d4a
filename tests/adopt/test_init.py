"""`gate init`: config, workflow and pre-commit hooks added to real repositories, the user's
files kept line for line, idempotent, and `--dry-run` writes nothing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import Repo
from ruamel.yaml import YAML

from gate import cli, toml
from gate.engine import config

BIN = Path(sys.executable).parent
PYPROJECT = """\
# the project
[project]
name = 'calc'   # odd quoting kept
version = "0.1.0"

[dependency-groups]
tests = ["pytest", "mypy"]

[tool.mypy]
strict = true
"""
CONFIG = """\
# hooks of the project
default_stages: [pre-commit]   # keep me
x-common: &common
    stages: ['pre-commit']
repos:
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: "v4.6.0"  # pinned
    hooks:
    -   id: trailing-whitespace
        <<: *common
    -   id: 'end-of-file-fixer'
        args: ["--fix", 'lf']

-   repo: local
    hooks:
    -   id: mine
        name: "mine: a long name, longer than eighty characters, which must not be folded at all"
        entry: ./x
        language: system
# the end
"""
CI = "# CI\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: 'true'\n"
ADDED_TOML = """
[tool.gate]
test = "python -m pytest"
pinned = "review"

[[tool.gate.checks]]
name = "mypy"
run = "python -m mypy"
"""
ADDED_HOOKS = """\
-   repo: https://github.com/OWNER/gate
    rev: v0.1.0
    hooks:
    -   id: gate-scan
    -   id: gate
default_install_hook_types: [pre-commit, pre-push]
"""


def _repo(tmp_path: Path, files: dict[str, str | None]) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.commit(files)
    return repo


def _init(repo: Repo, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["init", "--repo", str(repo.path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def _files(repo: Repo) -> dict[str, bytes]:
    return {str(p.relative_to(repo.path)): p.read_bytes() for p in repo.path.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(repo.path).parts}


def _run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"})


def test_init_adds_config_workflow_and_hooks_keeping_every_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {"pyproject.toml": PYPROJECT, ".pre-commit-config.yaml": CONFIG,
                            ".github/workflows/ci.yml": CI})
    code, out, _ = _init(repo, capsys)
    out = "".join(line for line in out.splitlines(keepends=True) if "placeholder" not in line)
    assert (code, out) == (0, "gate init: updated pyproject.toml\n"
                              "gate init: wrote .github/workflows/gate.yml\n"
                              "gate init: updated .pre-commit-config.yaml\n"
                              "gate init: commit these files first, then run `pre-commit "
                              "install` for both hooks (`pip install pre-commit` if you do not "
                              "have it)\n")
    assert (repo.path / "pyproject.toml").read_text() == PYPROJECT + ADDED_TOML
    assert (repo.path / ".pre-commit-config.yaml").read_text() == CONFIG + ADDED_HOOKS
    assert (repo.path / ".github/workflows/ci.yml").read_text() == CI
    cfg = config.parse(toml.loads((repo.path / "pyproject.toml").read_text())["tool"]["gate"],
                       "pyproject.toml")
    assert (cfg.test, [(c.name, c.run, c.required) for c in cfg.checks]) == (
        "python -m pytest", [("mypy", "python -m mypy", True)])
    checked = _run("pre-commit", "validate-config", ".pre-commit-config.yaml", cwd=repo.path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    schema = _run("check-jsonschema", "--builtin-schema", "vendor.github-workflows",
                  ".github/workflows/gate.yml", cwd=repo.path)
    assert schema.returncode == 0, schema.stdout + schema.stderr


def test_a_second_run_changes_nothing(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {"pyproject.toml": PYPROJECT, ".pre-commit-config.yaml": CONFIG})
    _init(repo, capsys)
    before = _files(repo)
    assert _init(repo, capsys) == (0, "gate init: nothing to change\n", "")
    assert _init(repo, capsys, "--dry-run") == (0, "", "")
    assert _files(repo) == before


def test_dry_run_prints_the_diff_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files: dict[str, str | None] = {"pyproject.toml": PYPROJECT,
                                    ".pre-commit-config.yaml": CONFIG}
    repo = _repo(tmp_path, files)
    before = _files(repo)
    code, diff, _ = _init(repo, capsys, "--dry-run")
    assert code == 0
    assert _files(repo) == before
    assert diff.startswith("--- a/pyproject.toml\n+++ b/pyproject.toml\n")
    assert "--- /dev/null\n+++ b/.github/workflows/gate.yml\n" in diff
    # The printed diff is exactly what a real run applies.
    other = Repo(tmp_path / "other")
    other.commit(files)
    (tmp_path / "init.diff").write_text(diff)
    other.git("apply", str(tmp_path / "init.diff"))
    _init(repo, capsys)
    assert _files(other) == _files(repo)


def test_an_existing_gate_entry_gets_the_missing_hook_and_keeps_its_rev(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config_text = ("repos:  # ours\n  - repo: https://github.com/OWNER/gate.git\n"
                   "    rev: v0.0.9\n    hooks:\n      - id: gate-scan\n"
                   "default_install_hook_types:\n  - pre-commit\n")
    repo = _repo(tmp_path, {".pre-commit-config.yaml": config_text})
    _init(repo, capsys)
    assert (repo.path / ".pre-commit-config.yaml").read_text() == (
        "repos:  # ours\n  - repo: https://github.com/OWNER/gate.git\n"
        "    rev: v0.0.9\n    hooks:\n      - id: gate-scan\n      - id: gate\n"
        "default_install_hook_types:\n  - pre-commit\n  - pre-push\n")


def test_a_config_indented_two_ways_keeps_every_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Seen in a real project: the first entry pasted from a README that indents the other way.
    two_ways = ("repos:\n- repo: https://github.com/example/first\n  rev: \"v1\"\n  hooks:\n"
                "    - id: one\n      args: [\"--fix\"]\n    - id: two\n"
                "-   repo: https://github.com/example/second\n    rev: v2\n    hooks:\n"
                "    -   id: three\n        files: \\.py$\n")
    repo = _repo(tmp_path, {".pre-commit-config.yaml": two_ways})
    _init(repo, capsys)
    written = (repo.path / ".pre-commit-config.yaml").read_text()
    assert written == two_ways + ("- repo: https://github.com/OWNER/gate\n  rev: v0.1.0\n"
                                  "  hooks:\n  - id: gate-scan\n  - id: gate\n"
                                  "default_install_hook_types: [pre-commit, pre-push]\n")
    checked = _run("pre-commit", "validate-config", ".pre-commit-config.yaml", cwd=repo.path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_hand_edited_workflow_is_kept_without_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = "# mine\non: pull_request\njobs: {}\n"
    repo = _repo(tmp_path, {".github/workflows/gate.yml": mine})
    code, out, err = _init(repo, capsys)
    assert (code, out) == (2, "")
    assert err == (
        "gate: error: .github/workflows/gate.yml exists and differs from the workflow gate "
        "init writes (edited by hand, or written with other --shards?): it was left as it is. "
        "Pass --force to replace it, or see `gate init --dry-run --force` for the "
        "difference\n")
    assert not (repo.path / ".pre-commit-config.yaml").exists()
    assert (repo.path / ".github/workflows/gate.yml").read_text() == mine
    code, out, _ = _init(repo, capsys, "--force")
    assert code == 0
    assert "gate init: updated .github/workflows/gate.yml\n" in out
    assert f"uses: OWNER/gate@{'0' * 40}  # v0.1.0\n" in (
        repo.path / ".github/workflows/gate.yml").read_text()


def test_the_workflow_pins_every_action_by_commit_with_its_tag_in_a_comment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """zizmor's unpinned-uses: a tag can be moved to other code, a commit cannot."""
    repo = _repo(tmp_path, {})
    _init(repo, capsys)
    workflow = (repo.path / ".github/workflows/gate.yml").read_text()
    uses = [line.strip() for line in workflow.splitlines() if "uses:" in line]
    assert uses == [
        "- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2",
        f"uses: OWNER/gate@{'0' * 40}  # v0.1.0"]
    proc = subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--min-severity", "medium", "--format", "plain",
         str(repo.path / ".github/workflows/gate.yml")],
        capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                             if not k.endswith("GITHUB_TOKEN")
                                             and k != "GH_TOKEN"})
    assert "unpinned" not in proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_without_pyproject_the_config_goes_to_gate_toml(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    package = '{"scripts": {"test": "node --test", "lint": "eslint ."}}\n'
    repo = _repo(tmp_path, {"package.json": package, "package-lock.json": "{}\n"})
    _init(repo, capsys)
    assert (repo.path / ".gate.toml").read_text() == (
        'test = "npm test"\npinned = "review"\n\n'
        '[[checks]]\nname = "lint"\nrun = "npm run lint"\nrequired = false\n')


def test_crlf_pyproject_keeps_its_bytes_and_line_endings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    original = b'[project]\r\nname = "calc"\r\n'
    (repo.path / "pyproject.toml").write_bytes(original)
    _init(repo, capsys)
    assert (repo.path / "pyproject.toml").read_bytes() == original + (
        b'\r\n[tool.gate]\r\ntest = "python -m pytest"\r\npinned = "review"\r\n')


def test_invalid_pyproject_is_an_error_that_says_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {"pyproject.toml": "[project\n"})
    code, _, err = _init(repo, capsys)
    assert code == 2
    assert err.startswith("gate: error: pyproject.toml is not valid TOML (")
    assert err.endswith("): fix it, then run gate init again\n")


@pytest.mark.parametrize(("page", "heading", "after"), [
    ("README.md", "\n### pre-commit\n", "\nthen commit these files"),
    ("docs/pre-commit.md", "# pre-commit\n", "\nthen `pre-commit install`")])
def test_the_docs_show_the_config_gate_init_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], page: str, heading: str,
        after: str) -> None:
    repo = _repo(tmp_path, {})
    _init(repo, capsys)
    text = (Path(__file__).resolve().parents[2] / page).read_text()
    section = text.split(heading, 1)[1].split(after)[0]
    snippet = [row[4:].split("#")[0].rstrip() for row in section.splitlines()
               if row.startswith("    ")]
    assert "\n".join(snippet) + "\n" == (repo.path / ".pre-commit-config.yaml").read_text()


def test_the_readme_shows_the_step_gate_init_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    _init(repo, capsys)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    shown = readme.split("\n### GitHub Action\n", 1)[1].split("\n### ", 1)[0]
    step = "".join(row[4:] + "\n" for row in shown.splitlines() if row.startswith("    "))
    written = (repo.path / ".github/workflows/gate.yml").read_text()
    assert step.replace("<the commit of v0.1.0>", "0" * 40) in written
    assert step.count("\n") == 2


def _zizmor(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--min-severity", "medium", "--format", "plain",
         str(path)], capture_output=True, text=True,
        env={k: v for k, v in os.environ.items()
             if not k.endswith("GITHUB_TOKEN") and k != "GH_TOKEN"})


def test_shards_writes_a_matrix_of_shard_jobs_and_a_merge_job(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    code, out, _ = _init(repo, capsys, "--shards", "3")
    assert code == 0
    assert "gate init: wrote .github/workflows/gate.yml\n" in out
    path = repo.path / ".github/workflows/gate.yml"
    schema = _run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(path),
                  cwd=repo.path)
    assert schema.returncode == 0, schema.stdout + schema.stderr
    proc = _zizmor(path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    workflow = YAML(typ="safe").load(path.read_text())
    assert list(workflow["jobs"]) == ["shard", "merge"]
    shard, merge = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    assert shard["strategy"] == {"fail-fast": False, "matrix": {"shard": [1, 2, 3]}}
    assert shard["permissions"] == {"contents": "read"}  # a shard posts nothing
    action = f"OWNER/gate@{'0' * 40}"
    assert [s.get("uses") for s in shard["steps"]] == [
        "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683", action]
    assert shard["steps"][0]["with"]["fetch-depth"] == 0
    assert shard["steps"][1]["with"] == {"shard": "${{ matrix.shard }}/3"}
    assert merge["needs"] == "shard"
    assert merge["if"] == "${{ !cancelled() }}"  # a failed shard still gets merged, and named
    assert merge["permissions"] == {"contents": "read", "checks": "write",
                                    "pull-requests": "write", "issues": "write"}
    assert merge["steps"][0]["with"]["fetch-depth"] == 0
    assert merge["steps"][1] == {"id": "gate", "uses": action, "with": {"mode": "merge"}}
    # What the jobs give the Action are its inputs.
    inputs = YAML(typ="safe").load((Path(__file__).resolve().parents[2] / "action.yml")
                                   .read_text())["inputs"]
    assert {"shard", "mode"} <= set(inputs)
    # Idempotent; the unsharded workflow is not written over it without --force.
    assert _init(repo, capsys, "--shards", "3") == (0, "gate init: nothing to change\n", "")
    code, _, err = _init(repo, capsys)
    assert code == 2
    assert "written with other --shards?" in err
    code, out, _ = _init(repo, capsys, "--shards", "4", "--force")
    assert (code, "gate init: updated .github/workflows/gate.yml\n" in out) == (0, True)
    again = YAML(typ="safe").load(path.read_text())
    assert again["jobs"]["shard"]["strategy"]["matrix"]["shard"] == [1, 2, 3, 4]
    assert again["jobs"]["shard"]["steps"][1]["with"] == {"shard": "${{ matrix.shard }}/4"}


def test_shards_up_to_the_matrix_limit(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    assert _init(repo, capsys, "--shards", "256")[0] == 0
    workflow = YAML(typ="safe").load((repo.path / ".github/workflows/gate.yml").read_text())
    assert workflow["jobs"]["shard"]["strategy"]["matrix"]["shard"] == list(range(1, 257))


@pytest.mark.parametrize("shards", ["1", "0", "-2", "257"])
def test_a_bad_number_of_shards_is_an_error_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: str) -> None:
    repo = _repo(tmp_path, {"pyproject.toml": PYPROJECT})
    before = _files(repo)
    code, out, err = _init(repo, capsys, "--shards", shards)
    assert (code, out) == (2, "")
    assert err == (f"gate: error: --shards {shards}: give the number of jobs to split the "
                   "tests across, from 2 to 256 (GitHub's limit per matrix); without "
                   "--shards, one job runs them all\n")
    assert _files(repo) == before


def test_shards_must_be_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    with pytest.raises(SystemExit) as stopped:
        _init(repo, capsys, "--shards", "three")
    assert stopped.value.code == 2
    assert "argument --shards: invalid int value: 'three'" in capsys.readouterr().err
    assert not (repo.path / ".github").exists()


def test_the_action_page_shows_the_workflow_gate_init_shards_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {})
    _init(repo, capsys, "--shards", "4")
    page = (Path(__file__).resolve().parents[2] / "docs" / "action.md").read_text()
    section = page.split("\n## Sharding across a matrix\n", 1)[1]
    block = section.split("\n\n    ", 1)[1].split("\n\n- ", 1)[0]
    shown = "".join(row[4:] + "\n" for row in ("    " + block).splitlines())
    assert shown.replace("<the commit of v0.1.0>", "0" * 40) == (
        repo.path / ".github/workflows/gate.yml").read_text()


def test_init_says_which_lines_it_wrote_are_placeholders_before_the_release(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Repo(tmp_path / "r")
    repo.commit({"pyproject.toml": "[project]\nname = 'x'\n"})
    assert cli.main(["init", "--repo", str(repo.path)]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "placeholder" in line]
    workflow = (repo.path / ".github/workflows/gate.yml").read_text().splitlines()
    line = next(i for i, text in enumerate(workflow, 1) if "uses: OWNER/gate@" in text)
    assert said == [
        f"gate init: placeholder at .github/workflows/gate.yml:{line} (this gate is not "
        "released yet): put the repository and commit of the gate your workflow uses (your "
        "fork, or a copy in the repository: uses: ./path) there",
        "gate init: placeholder at .pre-commit-config.yaml:3 (this gate is not released yet): "
        "put the URL of the gate's repository you use (your fork), or replace the entry with "
        "the README's `repo: local` hooks there",
        "gate init: placeholder at .pre-commit-config.yaml:4 (this gate is not released yet): "
        "put a tag or commit of that repository there"]
    # --dry-run, which a new user reads first, says them too (on stderr, beside the diff)
    other = Repo(tmp_path / "other")
    other.commit({"pyproject.toml": "[project]\nname = 'x'\n"})
    assert cli.main(["init", "--repo", str(other.path), "--dry-run"]) == 0
    shown = [line for line in capsys.readouterr().err.splitlines() if "placeholder" in line]
    assert shown == said


def test_a_check_nothing_installs_is_not_proposed_and_init_says_how_to_add_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, {"pyproject.toml": "[project]\nname = 'calc'\n\n[tool.mypy]\n"})
    code, out, _ = _init(repo, capsys)
    assert code == 0
    assert ("gate init: `mypy` is not proposed: the detected install does not bring mypy, so "
            "`python -m mypy` would not be found. To check it, add mypy to the tests' "
            "dependency group or extra") in out
    gate = toml.loads((repo.path / "pyproject.toml").read_text())["tool"]["gate"]
    assert "checks" not in gate


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_init_check_runs_the_proposal_on_head_and_writes_nothing_when_it_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tests import what the detected install does not bring: init --check shows the
    suite failing with the import error and writes nothing."""
    from helpers.pyproject_fixture import project
    files = project(**{"tests/test_calc.py": "import dateutil\n\n\ndef test_x():\n    pass\n"})
    repo = _repo(tmp_path, files)
    before = _files(repo)
    code, out, _ = _init(repo, capsys, "--check")
    assert code == 1
    assert "gate init: tried on HEAD: install: passed" in out
    assert "gate init: tried on HEAD: suite: failed: 0 of 1 runs passed" in out
    assert "not collected: ModuleNotFoundError: No module named 'dateutil'" in out
    assert out.endswith("gate init: 1 check(s) of the proposed config fail on HEAD: nothing "
                        "written; fix them or the proposal (`--dry-run` shows it), then run "
                        "again\n")
    assert _files(repo) == before


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_init_check_writes_a_proposal_that_passes_on_head(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from helpers.pyproject_fixture import project
    repo = _repo(tmp_path, project())
    code, out, _ = _init(repo, capsys, "--check")
    assert code == 0, out
    assert "gate init: tried on HEAD: suite: passed: 1 of 1 runs passed, 2/2 tests" in out
    assert "gate init: updated pyproject.toml" in out
    assert "[tool.gate]" in (repo.path / "pyproject.toml").read_text()


@pytest.mark.slow
@pytest.mark.usefixtures("offline_pip")
def test_init_check_leaves_out_a_check_nothing_installs_and_still_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seen on hukkin/tomli: [tool.mypy] and nothing that installs mypy. The check was
    proposed optional, and failed on HEAD with "no module named mypy": now it is left out,
    with how to add it, and the config is written."""
    from helpers.pyproject_fixture import PYPROJECT, project
    repo = _repo(tmp_path, project(**{"pyproject.toml": PYPROJECT + "\n[tool.mypy]\n"}))
    code, out, _ = _init(repo, capsys, "--check")
    assert code == 0, out
    assert "tried on HEAD: mypy" not in out
    assert "gate init: `mypy` is not proposed: the detected install does not bring mypy" in out
    assert "gate init: updated pyproject.toml" in out


def test_init_check_that_refuses_says_the_command_that_it_fails_on_head_and_its_output(
) -> None:
    """Seen on lukeed/kleur: `gate init --check` refused without saying why. It names the
    failing command, says it fails on HEAD itself (every pull request would fail alike), and
    shows the output's first lines."""
    from gate.adopt import trial
    from gate.models import CheckResult
    failed = CheckResult("suite", "Suite", "failed", True, "0 of 1 runs passed (run 1: exit 1)",
                         detail="\n> kleur@4.1.5 test\n> uvu -r esm test\n\nFAIL colors\n")
    passed = CheckResult("install", "Install", "passed", True, "`npm install` succeeded")
    assert trial.lines([passed, failed], {"test": "npm test"}) == [
        "gate init: tried on HEAD: install: passed: `npm install` succeeded",
        "gate init: tried on HEAD: suite: failed: 0 of 1 runs passed (run 1: exit 1)",
        "gate init:   `npm test` fails on HEAD itself, before any change: every pull request "
        "would fail alike (exit 2: the gate cannot judge it); its output:",
        "gate init:   | > kleur@4.1.5 test",
        "gate init:   | > uvu -r esm test",
        "gate init:   | FAIL colors",
    ]
