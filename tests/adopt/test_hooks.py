"""The hooks for real: the pre-commit framework running this repository's
.pre-commit-hooks.yaml, the plain scripts of hooks/ run by `git commit` and `git push`, and
the terminal output they share."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import Repo
from helpers.pyproject_fixture import TEST_CALC, project
from helpers.terminal import on_a_terminal

from gate import hook
from gate.adopt import git_hooks

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # where `gate` and `pre-commit` are installed
SKIPPED = TEST_CALC.replace("def test_add", "import pytest\n\n\n@pytest.mark.skip\ndef test_add")
SKIP_LINES = (
    "tests/test_calc.py:7: skip-markers: new skip marker `pytest.mark.skip`: the test it marks "
    "no longer runs\n"
    "gate: needs-review: resolve the lines above, or allow one with "
    "`# gate: allow skip-markers -- <reason>` on its line (`gate explain skip-markers` says how)\n"
)
CHECK_SH = 'grep -q good value.txt && echo "1 passed, 0 failed"\n'  # a suite without Python


@pytest.fixture(autouse=True)
def gate_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`gate` and `pre-commit` on PATH, as for a user who installed them: the hooks call them,
    also when a test commits through the helpers of helpers/gitrepo.py."""
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")


def _env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return {**env, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(extra or {})}


def _run(argv: list[str], cwd: Path, env: Mapping[str, str] | None = None,
         stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=dict(env or _env()), input=stdin,
                          capture_output=True, text=True)


def _plain_hooks(repo: Repo) -> None:
    """The plain git hooks as `gate init --git-hooks` installs them from the package."""
    git_hooks.install(str(repo.path))


def _shell_project(tmp_path: Path) -> Repo:
    """A project whose suite is a shell script: the whole gate runs in well under a second."""
    repo = Repo(tmp_path / "work")
    repo.commit({".gate.toml": 'test = "sh check.sh"\nruns = 1\n', "check.sh": CHECK_SH,
                 "value.txt": "good\n"})
    return repo


# --- the terminal output ---------------------------------------------------------------


def test_the_hook_prints_a_line_per_finding_and_how_to_allow(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit(project())
    repo.write({"tests/test_calc.py": SKIPPED})
    repo.git("add", "-A")
    done = _run(["gate", "hook", "pre-commit"], repo.path)
    assert (done.returncode, done.stdout, done.stderr) == (3, SKIP_LINES, "")


def test_the_commit_hook_honours_the_committers_own_allow_comment_and_says_so(
        tmp_path: Path) -> None:
    """At a commit the author is at the keyboard: their comment counts there, and the hook says
    that the pull request's gate will not take it (`gate scan` of the same change does not)."""
    repo = Repo(tmp_path / "work")
    repo.commit(project())
    repo.write({"tests/test_calc.py": SKIPPED.replace(
        "@pytest.mark.skip\n", "@pytest.mark.skip  # gate: allow skip-markers -- issue 7\n")})
    repo.git("add", "-A")
    done = _run(["gate", "hook", "pre-commit"], repo.path)
    assert (done.returncode, done.stdout, done.stderr) == (0, hook.OWN_ALLOWS + "\n", "")
    repo.git("commit", "-q", "-m", "skip", "--no-verify")
    scanned = _run(["gate", "scan", "--base", "HEAD~1"], repo.path)
    assert scanned.returncode == 3


def test_the_scan_hook_takes_strict_and_refuses_what_only_the_push_hook_does(
        tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit(project())
    repo.write({"tests/test_calc.py": SKIPPED})
    repo.git("add", "-A")
    strict = _run(["gate", "hook", "pre-commit", "--strict"], repo.path)
    assert (strict.returncode, strict.stdout) == (1, SKIP_LINES.replace("needs-review", "fail"))
    runs = _run(["gate", "hook", "pre-commit", "--runs", "2", "--parallel"], repo.path)
    assert (runs.returncode, runs.stdout, runs.stderr) == (2, "", (
        "gate: error: --runs, --parallel: only the pre-push hook (`gate`) runs the suite; "
        "remove it from the args of gate-scan\n"))


def test_a_clean_staged_change_prints_nothing(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit(project())
    repo.write({"tests/test_more.py": "def test_more():\n    assert 1\n"})
    repo.git("add", "-A")
    done = _run(["gate", "hook", "pre-commit"], repo.path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def _on_a_terminal(repo: Repo, env: Mapping[str, str]) -> str:
    return on_a_terminal([str(BIN / "gate"), "hook", "pre-commit"], repo.path, env)[1]


def test_colour_on_a_terminal_and_never_with_no_color(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit(project())
    repo.write({"tests/test_calc.py": SKIPPED})
    repo.git("add", "-A")
    assert _on_a_terminal(repo, _env()) == (
        "\033[1mtests/test_calc.py:7\033[0m: \033[33mskip-markers\033[0m: new skip marker "
        "`pytest.mark.skip`: the test it marks no longer runs\n"
        "\033[33mgate: needs-review: resolve the lines above, or allow one with "
        "`# gate: allow skip-markers -- <reason>` on its line (`gate explain skip-markers` "
        "says how)\033[0m\n")
    assert _on_a_terminal(repo, _env({"NO_COLOR": "1"})) == SKIP_LINES


# --- the plain git hooks -----------------------------------------------------------------


def test_plain_pre_commit_hook_refuses_a_skip_marker_committed_with_a(tmp_path: Path) -> None:
    """`git commit -a` stages into a temporary index that the hook is given."""
    repo = Repo(tmp_path / "work")
    _plain_hooks(repo)
    repo.write({"README": "calc\n"})
    repo.git("add", "README")
    first = _run(["git", "commit", "-q", "-m", "first"], repo.path)  # nothing to compare with
    assert first.stderr == ("gate: the first commit has no HEAD to compare the staged change "
                            "with; not scanned\n")
    repo.commit(project())
    head = repo.git("rev-parse", "HEAD")
    repo.write({"tests/test_calc.py": SKIPPED})
    refused = _run(["git", "commit", "-a", "-q", "-m", "skip"], repo.path)
    assert (refused.returncode, refused.stderr) == (1, SKIP_LINES)  # git: hook output to stderr
    assert repo.git("rev-parse", "HEAD") == head
    repo.write({"tests/test_calc.py": TEST_CALC + "\n\ndef test_more():\n    assert 1\n"})
    allowed = _run(["git", "commit", "-a", "-q", "-m", "more"], repo.path)
    assert (allowed.returncode, allowed.stderr) == (0, "")
    assert repo.git("rev-parse", "HEAD") != head


@pytest.mark.slow
def test_the_adoption_is_pushed_as_init_says_and_the_next_push_is_judged(
        tmp_path: Path) -> None:
    """After `gate init --git-hooks` the hooks name `--no-verify` for the adopting commit and
    its push (the base has no gate config to judge it against), and judge what follows."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    repo = Repo(tmp_path / "work")
    repo.commit({"check.sh": CHECK_SH, "value.txt": "good\n"})
    repo.git("remote", "add", "origin", str(remote))
    repo.git("push", "-q", "origin", "main")
    init = _run(["gate", "init", "--git-hooks"], repo.path)
    assert init.returncode == 0, init.stderr
    assert "`git push --no-verify`" in init.stdout
    repo.write({".gate.toml": 'test = "sh check.sh"\nruns = 1\n'})
    repo.git("add", "-A")
    commit = _run(["git", "commit", "-q", "-m", "adopt the gate"], repo.path)
    assert commit.returncode != 0
    assert "commit it once with `git commit --no-verify`" in commit.stdout + commit.stderr
    assert "resolve the lines above" not in commit.stdout + commit.stderr
    repo.git("commit", "-q", "--no-verify", "-m", "adopt the gate")
    push = _run(["git", "push", "-q", "origin", "main"], repo.path)
    assert push.returncode != 0
    assert ("refs/heads/main brings the gate's adoption (its config or workflow, absent at the "
            "base): push that once with `git push --no-verify`") in push.stdout
    assert "resolve the lines above" not in push.stdout  # one voice: how to push it
    assert _run(["git", "push", "-q", "--no-verify", "origin", "main"], repo.path).returncode == 0
    repo.commit({"notes.txt": "fine\n"})
    judged = _run(["git", "push", "-q", "origin", "main"], repo.path)
    assert (judged.returncode, judged.stdout) == (0, "")
    repo.commit({"value.txt": "bad\n"})
    refused = _run(["git", "push", "-q", "origin", "main"], repo.path)
    assert refused.returncode == 1
    assert "adoption" not in refused.stdout


def test_plain_pre_push_hook_judges_a_new_branch_and_refuses_a_broken_one(
        tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    repo = _shell_project(tmp_path)
    _plain_hooks(repo)
    repo.git("remote", "add", "origin", str(remote))
    first = _run(["git", "push", "-q", "origin", "main"], repo.path)
    assert (first.returncode, first.stdout) == (0, (
        "gate: refs/heads/main: the push brings the whole history (its root commit too), so "
        "there is no base to judge it against; judge it with `gate run --base REF`\n"))
    repo.branch("feature")
    repo.commit({"notes.txt": "fine\n"})
    repo.commit({"value.txt": "bad\n"})
    refused = _run(["git", "push", "-q", "origin", "feature"], repo.path)
    assert refused.returncode == 1
    assert refused.stdout == (
        "suite: 0 of 1 runs passed (run 1: exit 1); baseline: regression, passes at base\n"
        "gate: fail: resolve the lines above (`gate explain suite` says how)\n")
    assert _run(["git", "rev-parse", "--verify", "-q", "feature"], remote).returncode == 1
    repo.commit({"value.txt": "good\n"})
    pushed = _run(["git", "push", "-q", "origin", "feature"], repo.path)
    assert (pushed.returncode, pushed.stdout) == (0, "")
    assert _run(["git", "rev-parse", "feature"], remote).stdout == repo.git("rev-parse", "HEAD")


def test_the_full_gate_in_a_hook_leaves_the_users_index_intact(tmp_path: Path) -> None:
    """Inside a hook git exports GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE: the gate reads
    with them and makes its checkouts and runs its commands without them."""
    repo = _shell_project(tmp_path)
    base = repo.git("rev-parse", "HEAD").strip()
    repo.commit({"notes.txt": "1\n"})
    repo.write({"notes.txt": "staged\n"})
    repo.git("add", "notes.txt")
    repo.write({"notes.txt": "unstaged\n", "value.txt": "good, edited\n"})
    before = repo.snapshot()
    git_dir = repo.path / ".git"
    env = _env({"GIT_DIR": str(git_dir), "GIT_INDEX_FILE": str(git_dir / "index"),
                "GIT_WORK_TREE": str(repo.path), "PRE_COMMIT_FROM_REF": base,
                "PRE_COMMIT_TO_REF": "HEAD"})
    done = _run(["gate", "hook", "pre-push"], repo.path, env)
    assert (done.returncode, done.stdout) == (0, "")
    assert repo.snapshot() == before
    assert repo.git("diff", "--cached", "--name-only") == "notes.txt\n"


# --- the pre-commit framework ----------------------------------------------------------


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """This checkout committed in a temporary repository (pre-commit installs hooks from a
    commit), and one PRE_COMMIT_HOME for the session, where the hook environment is built
    once, from PyPI: (repository, commit, PRE_COMMIT_HOME)."""
    home = tmp_path_factory.mktemp("precommit-home")
    env = {k: v for k, v in _env().items() if not k.startswith(("PIP_", "GIT_"))}
    env.update({"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
                "PRE_COMMIT_HOME": str(home / "cache")})
    (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
    listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"],
                            cwd=PROJECT, capture_output=True, check=True).stdout
    clone = tmp_path_factory.mktemp("gate-clone")
    for rel in filter(None, listed.decode().split("\0")):
        source = PROJECT / rel
        if source.is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / rel)
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                 ["git", "commit", "-q", "-m", "gate"]):
        subprocess.run(argv, cwd=clone, env=env, check=True, capture_output=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    user = tmp_path_factory.mktemp("build-env")
    subprocess.run(["git", "init", "-q"], cwd=user, env=env, check=True)
    (user / ".pre-commit-config.yaml").write_text(_config(clone, sha))
    built = _run(["pre-commit", "install-hooks"], user, env)
    assert built.returncode == 0, built.stdout + built.stderr
    return clone, sha, home / "cache"


def _config(clone: Path, sha: str, scan_args: str = "", gate_args: str = "") -> str:
    return (f"repos:\n- repo: {clone}\n  rev: {sha}\n  hooks:\n"
            f"  - id: gate-scan\n{scan_args}  - id: gate\n{gate_args}")


def _with_pre_commit(tmp_path: Path, hooks: tuple[Path, str, Path],
                     files: Mapping[str, str] | None = None, **args: str,
                     ) -> tuple[Repo, dict[str, str]]:
    clone, sha, cache = hooks
    repo = Repo(tmp_path / "work")
    repo.commit({**(files or project()), ".pre-commit-config.yaml": _config(clone, sha, **args)})
    return repo, _env({"PRE_COMMIT_HOME": str(cache)})


@pytest.mark.slow
def test_framework_passes_the_hooks_args_through(
        tmp_path: Path, hooks_repo: tuple[Path, str, Path]) -> None:
    """`args:` in the user's config: --strict turns the scan's needs-review into a fail, and
    --runs 2 overrides the base's `runs = 1` for the pushed range."""
    repo, env = _with_pre_commit(
        tmp_path, hooks_repo, {".gate.toml": 'test = "sh check.sh"\nruns = 1\n',
                               "check.sh": CHECK_SH, "value.txt": "good\n",
                               "tests/test_calc.py": TEST_CALC},
        scan_args="    args: [--strict]\n", gate_args="    args: [--strict, --runs, '2']\n")
    base = repo.git("rev-parse", "HEAD").strip()
    repo.write({"tests/test_calc.py": SKIPPED})
    repo.git("add", "-A")
    scan = _run(["pre-commit", "run", "gate-scan"], repo.path, env)
    assert scan.returncode == 1
    assert "- hook id: gate-scan\n- exit code: 1\n\n" in scan.stdout
    assert SKIP_LINES.replace("needs-review", "fail") in scan.stdout
    repo.git("reset", "-q", "--hard")
    repo.commit({"value.txt": "bad\n"})
    head = repo.git("rev-parse", "HEAD").strip()
    push = _run(["pre-commit", "run", "gate", "--hook-stage", "pre-push",
                 "--from-ref", base, "--to-ref", head], repo.path, env)
    assert (push.returncode, push.stdout.split("\n", 1)[1]) == (1, (
        "- hook id: gate\n- exit code: 1\n\n"
        "suite: 0 of 2 runs passed (run 1: exit 1; run 2: exit 1); baseline: regression, "
        "passes at base\n"
        "gate: fail: resolve the lines above (`gate explain suite` says how)\n\n"))


@pytest.mark.slow
def test_framework_runs_gate_scan_on_commit(tmp_path: Path,
                                             hooks_repo: tuple[Path, str, Path]) -> None:
    repo, env = _with_pre_commit(tmp_path, hooks_repo)
    installed = _run(["pre-commit", "install", "--hook-type", "pre-commit"], repo.path, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    head = repo.git("rev-parse", "HEAD")
    repo.write({"tests/test_calc.py": SKIPPED})
    repo.git("add", "-A")
    refused = _run(["git", "commit", "-q", "-m", "skip"], repo.path, env)
    assert refused.returncode == 1
    assert "- hook id: gate-scan\n- exit code: 3\n\n" + SKIP_LINES in refused.stderr
    plain = _run([str(PROJECT / "hooks" / "pre-commit")], repo.path)  # the same lines
    assert (plain.returncode, plain.stdout) == (3, SKIP_LINES)
    assert repo.git("rev-parse", "HEAD") == head
    repo.write({"tests/test_calc.py": TEST_CALC + "\n\ndef test_more():\n    assert 1\n"})
    repo.git("add", "-A")
    allowed = _run(["git", "commit", "-q", "-m", "more"], repo.path, env)
    assert allowed.returncode == 0, allowed.stderr
    assert "gate scan (the staged change)" in allowed.stderr
    assert repo.git("rev-parse", "HEAD") != head


@pytest.mark.usefixtures("offline_pip")
@pytest.mark.slow
def test_framework_pre_push_catches_a_weakened_test(
        tmp_path: Path, hooks_repo: tuple[Path, str, Path]) -> None:
    repo, env = _with_pre_commit(tmp_path, hooks_repo)
    base = repo.git("rev-parse", "HEAD").strip()
    repo.commit({"calc/__init__.py": "def add(a, b):\n    return 0\n\n\n"
                                     "def sub(a, b):\n    return a - b\n",
                 "tests/test_calc.py": TEST_CALC.replace("add(2, 3) == 5", "add(2, 3) == 0")})
    head = repo.git("rev-parse", "HEAD").strip()
    done = _run(["pre-commit", "run", "gate", "--hook-stage", "pre-push",
                 "--from-ref", base, "--to-ref", head], repo.path, env)
    assert (done.returncode, done.stdout.split("\n", 1)[1]) == (1, (
        "- hook id: gate\n- exit code: 3\n\n"
        "tests/test_calc.py:4: base-tests: the base version of tests/test_calc.py::test_add "
        "fails on the head code: the change altered behaviour this test pinned down (a bug fix, "
        "or a regression hidden by editing the test): assert 0 == 5\n"
        "gate: needs-review: resolve the lines above; a person must approve the rest "
        "(`gate explain base-tests` says how)\n\n"))
    scan = _run(["pre-commit", "run", "gate-scan", "--hook-stage", "pre-push"], repo.path, env)
    assert (scan.returncode, scan.stdout) == (  # the scan hook is not a pre-push hook
        1, "No hook with id `gate-scan` in stage `pre-push`\n")
