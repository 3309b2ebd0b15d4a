"""`gate submit` (gate/agent/): the working tree committed to a branch, judged by the whole
gate, answered in bounded text for a model; attempts capped per change, under the base's cap."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.fake_github import REPO, FakeGitHub
from helpers.gitrepo import Repo, isolated_home
from helpers.pyproject_fixture import CALC, project

from gate.agent import attempts, feedback, submit

pytestmark = pytest.mark.slow

MUL = "\n\ndef mul(a, b):\n    return a * b\n"
BROKEN_ADD = CALC.replace("return a + b", "return a + b + 1")
WEAKENED_TEST = ("from calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 6\n\n\n"
                 "def test_sub():\n    assert sub(5, 3) == 2\n")
RUNS_1 = '\n[tool.gate]\nruns = 1\n'


def work_repo(root: Path, base: dict[str, str | None], work: dict[str, str | None]) -> Repo:
    """`base` committed on main, branch `work` checked out, `work` left uncommitted."""
    repo = Repo(root)
    repo.commit(base, "base")
    repo.branch("work")
    repo.write(work)
    return repo


class Loop:
    """One Python repository per case, each submitted once; the answers shared by the tests."""

    def __init__(self) -> None:
        self.answers: dict[str, submit.Answer] = {}
        self.repos: dict[str, Repo] = {}
        self.before: dict[str, dict[str, object]] = {}
        self.github: FakeGitHub | None = None
        self.remote: Path | None = None


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Loop:
    tmp = tmp_path_factory.mktemp("loop")
    found = Loop()
    base = project(**{"pyproject.toml": (project()["pyproject.toml"] or "") + RUNS_1})
    cases: dict[str, dict[str, str | None]] = {
        "honest": {"calc/__init__.py": CALC + MUL, "tests/test_mul.py": (
            "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n")},
        "weakened": {"calc/__init__.py": BROKEN_ADD, "tests/test_calc.py": WEAKENED_TEST},
        "network": {"pyproject.toml": (base["pyproject.toml"] or "").replace(
            'name = "calc"', 'name = "calc"\ndependencies = ["no-such-dist-for-gate"]')},
    }
    with isolated_home(tmp / "home", wheelhouse) as mp:
        remote = tmp / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
        with FakeGitHub() as github:
            for name, work in cases.items():
                repo = work_repo(tmp / name, base, work)
                repo.git("remote", "add", "origin", str(remote))
                found.repos[name] = repo
                found.before[name] = repo.snapshot()
                environ = dict(os.environ)
                if name == "network":
                    # The index is a port nothing listens on: the network, not the change.
                    for key, value in {"PIP_NO_INDEX": "", "PIP_RETRIES": "0",
                                       "PIP_TIMEOUT": "2", "UV_HTTP_RETRIES": "0",
                                       "PIP_INDEX_URL": "http://127.0.0.1:9/simple"}.items():
                        mp.setenv(key, value) if value else mp.delenv(key)
                if name == "honest":
                    environ.update({"GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": REPO,
                                    "GITHUB_API_URL": github.api_url})
                found.answers[name] = submit.submit(submit.Request(
                    base="main", repo=str(repo.path), message=f"{name}: the work",
                    open_pr=name == "honest"), environ=environ)
            found.github = github
        found.remote = remote
    return found


def test_an_honest_change_passes_and_opens_its_pull_request(loop: Loop) -> None:
    answer = loop.answers["honest"]
    assert (answer.verdict, answer.exit_code, answer.fault) == ("pass", 0, "change"), answer
    assert (answer.attempt, answer.attempts_left) == (1, 2)
    assert answer.branch == "gate/submit/work"
    assert answer.feedback.startswith("gate submit: pass for branch gate/submit/work at ")
    assert "Every check passed: nothing to change." in answer.feedback
    assert loop.remote is not None and loop.github is not None
    pushed = subprocess.run(["git", "--git-dir", str(loop.remote), "rev-parse",
                             "refs/heads/gate/submit/work"], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert pushed == answer.head
    [opened] = loop.github.opened
    assert (opened["head"], opened["base"], opened["title"]) == (
        "gate/submit/work", "main", "honest: the work")
    assert answer.pull_request == f"{loop.github.origin}/{REPO}/pull/1"
    assert [r.authorization for r in loop.github.calls("POST", r".*/pulls")] == [
        "token t0ken"]


def test_the_head_is_the_working_tree_committed_on_the_new_branch(loop: Loop) -> None:
    repo, answer = loop.repos["honest"], loop.answers["honest"]
    assert repo.git("rev-parse", "gate/submit/work").strip() == answer.head
    assert repo.git("rev-parse", f"{answer.head}^").strip() == repo.git(
        "rev-parse", "work").strip()
    assert repo.git("show", f"{answer.head}:tests/test_mul.py").startswith("from calc import")
    assert repo.git("log", "-1", "--format=%s", answer.head).strip() == "honest: the work"


@pytest.mark.parametrize("case", ["honest", "weakened", "network"])
def test_the_users_branch_index_and_files_are_left_as_they_were(loop: Loop, case: str) -> None:
    after = loop.repos[case].snapshot()
    before = loop.before[case]
    for key in ("status", "head", "index", "files", "stash", "worktrees"):
        assert after[key] == before[key], key
    assert str(after["refs"]).replace(str(before["refs"]), "").count("refs/heads/") == 1


def test_a_weakened_test_is_needs_review_naming_the_file_and_line(loop: Loop) -> None:
    answer = loop.answers["weakened"]
    assert (answer.verdict, answer.exit_code, answer.fault) == ("needs-review", 3, "change")
    lines = answer.feedback.splitlines()
    assert lines[0].startswith("gate submit: needs-review for branch gate/submit/work at ")
    assert lines[1].startswith("What would make it pass: resolve each numbered item below")
    assert lines[2].startswith("1. base-tests (failed): ")
    assert "tests/test_calc.py:5" in answer.feedback  # the base's `assert add(2, 3) == 5`
    assert "assert 6 == 5" in answer.feedback
    assert "Resolve: if the behaviour change is intended" in answer.feedback
    assert len(answer.feedback.encode()) <= feedback.LIMIT


def test_an_install_that_fails_on_the_network_is_not_the_changes_fault(loop: Loop) -> None:
    answer = loop.answers["network"]
    assert (answer.verdict, answer.exit_code, answer.fault) == (None, 2, "infrastructure"), (
        answer.feedback)
    assert "the install failed on the network" in answer.feedback
    assert "This is not the change's fault: do not change any code for it." in answer.feedback
    assert (answer.attempt, answer.attempts_left) == (1, 2)


# --- cheap repositories: nothing to install, a one-line test --------------------------------

GREP = {".gate.toml": 'install = "true"\ntest = "sh check.sh"\nruns = 1\n',
        "check.sh": "grep -qx 2 answer.txt\n", "answer.txt": "2\n"}


@pytest.fixture
def grep_repo(tmp_path: Path) -> Repo:
    return work_repo(tmp_path / "g", GREP, {"answer.txt": "3\n"})


def gate_submit(repo: Repo, *args: str) -> tuple[int, dict[str, Any]]:
    """The command line, as an agent's harness calls it."""
    done = subprocess.run([sys.executable, "-m", "gate", "submit", "--base", "main",
                           "--format", "json", *args], cwd=repo.path, capture_output=True,
                          text=True)
    return done.returncode, json.loads(done.stdout)


def test_the_fourth_attempt_after_three_failures_is_exit_5(grep_repo: Repo) -> None:
    answers = [gate_submit(grep_repo, "--message", f"try {n}") for n in (1, 2, 3)]
    assert [(code, a["verdict"], a["attempt"], a["attempts_left"]) for code, a in answers] == [
        (1, "fail", 1, 2), (1, "fail", 2, 1), (1, "fail", 3, 0)]
    assert "That was the last attempt: a person must look" in answers[2][1]["feedback"]
    tip = grep_repo.git("rev-parse", "gate/submit/work").strip()
    grep_repo.write({"answer.txt": "2\n"})  # even a right answer is not judged any more
    code, fourth = gate_submit(grep_repo)
    assert code == 5
    assert set(fourth) == {"verdict", "attempt", "attempts_left", "fault", "branch", "head",
                           "feedback"}
    assert (fourth["verdict"], fourth["attempt"], fourth["attempts_left"]) == ("fail", 3, 0)
    assert fourth["feedback"].startswith(
        "gate submit: attempt limit reached for branch gate/submit/work against main: 3 of 3")
    assert "A person must look: do not submit again." in fourth["feedback"]
    assert grep_repo.git("rev-parse", "gate/submit/work").strip() == tip == fourth["head"]


def test_the_cap_holds_against_a_new_branch_name_or_another_name_of_the_base(
        grep_repo: Repo) -> None:
    """Attempts are counted per change (where the work leaves the base), not per branch name:
    the agent gave both names itself (issue 39)."""
    assert gate_submit(grep_repo, "--max-attempts", "1")[0] == 1
    assert gate_submit(grep_repo, "--max-attempts", "1")[0] == 5
    code, other = gate_submit(grep_repo, "--max-attempts", "1", "--branch", "fix/other")
    assert (code, other["attempt"], other["attempts_left"]) == (5, 1, 0)
    assert "fix/other" not in grep_repo.git("branch", "--list")  # nothing committed
    grep_repo.git("branch", "release", "main")
    code, against = gate_submit(grep_repo, "--max-attempts", "1", "--base", "release")
    assert (code, against["attempt"]) == (5, 1)
    base = grep_repo.git("rev-parse", "main").strip()
    assert gate_submit(grep_repo, "--max-attempts", "1", "--base", base)[0] == 5


def test_the_cap_holds_against_a_larger_max_attempts_once_reached(grep_repo: Repo) -> None:
    """A change keeps the lowest cap it was submitted under: asking for 2 after the cap of 1
    was reached judges nothing (issue 39: the same agent was judged again with 2)."""
    assert gate_submit(grep_repo, "--max-attempts", "1")[0] == 1
    code, again = gate_submit(grep_repo, "--max-attempts", "2")
    assert (code, again["attempt"], again["attempts_left"]) == (5, 1, 0)
    assert gate_submit(grep_repo)[0] == 5


def test_the_cap_comes_from_the_base_config(tmp_path: Path) -> None:
    config = GREP[".gate.toml"] + "max-attempts = 1\n"
    repo = work_repo(tmp_path / "g", {**GREP, ".gate.toml": config},
                     {".gate.toml": config.replace("max-attempts = 1", "max-attempts = 9")})
    code, first = gate_submit(repo)
    assert (code, first["attempt"], first["attempts_left"]) == (3, 1, 0)  # check-config
    assert gate_submit(repo)[0] == 5
    refused = subprocess.run([sys.executable, "-m", "gate", "submit", "--base", "main",
                              "--max-attempts", "9"], cwd=repo.path, capture_output=True,
                             text=True)
    assert refused.returncode == 2
    assert "--max-attempts 9 is more than the cap of 1 (`max-attempts` in .gate.toml at" in (
        refused.stderr)


def test_each_attempt_re_reads_the_head(grep_repo: Repo) -> None:
    assert gate_submit(grep_repo)[0] == 1
    first = {"head": grep_repo.git("rev-parse", "gate/submit/work").strip()}
    grep_repo.write({"answer.txt": "2\n"})
    code, second = gate_submit(grep_repo)
    assert (code, second["verdict"], second["attempt"]) == (0, "pass", 2)
    assert second["head"] != first["head"]
    assert grep_repo.git("rev-parse", f"{second['head']}^").strip() == first["head"]
    assert grep_repo.git("rev-parse", "gate/submit/work").strip() == second["head"]


def test_an_install_command_not_found_is_not_the_changes_fault(tmp_path: Path) -> None:
    repo = work_repo(tmp_path / "g", {**GREP, ".gate.toml": GREP[".gate.toml"].replace(
        'install = "true"', 'install = "no-such-installer-for-gate"')}, {"notes.txt": "x\n"})
    code, answer = gate_submit(repo)
    assert (code, answer["verdict"], answer["fault"]) == (2, None, "infrastructure")
    assert "the install could not run: `no-such-installer-for-gate`: command not found" in (
        answer["feedback"])
    assert "This is not the change's fault: do not change any code for it." in (
        answer["feedback"])


def test_a_change_that_fakes_a_network_failure_gets_no_pass(tmp_path: Path) -> None:
    """The cheat: an install step of the head's own prints a resolver error. It is called
    the machine's fault (exit 2), never a pass, and it uses up an attempt."""
    config = GREP[".gate.toml"].replace('install = "true"', 'install = "sh install.sh"')
    repo = work_repo(tmp_path / "g", {**GREP, ".gate.toml": config, "install.sh": "true\n"},
                     {"install.sh": "echo 'Temporary failure in name resolution' >&2\n"
                                    "exit 1\n"})
    code, answer = gate_submit(repo, "--max-attempts", "1")
    assert (code, answer["verdict"], answer["fault"]) == (2, None, "infrastructure")
    assert gate_submit(repo, "--max-attempts", "1")[0] == 5


def test_its_honest_twin_with_a_failing_install_is_the_changes_fault(tmp_path: Path) -> None:
    config = GREP[".gate.toml"].replace('install = "true"', 'install = "sh install.sh"')
    repo = work_repo(tmp_path / "g", {**GREP, ".gate.toml": config, "install.sh": "true\n"},
                     {"install.sh": "echo 'error: missing file setup.cfg' >&2\nexit 1\n"})
    code, answer = gate_submit(repo)
    assert (code, answer["verdict"], answer["fault"]) == (1, "fail", "change")
    assert answer["feedback"].splitlines()[2].startswith("1. install (failed, required): ")


def test_the_judged_code_cannot_reset_the_counter(tmp_path: Path) -> None:
    """The head's test tries to rewrite the attempts file in the user's git dir (its path
    is no secret); the boundary keeps that directory read-only."""
    repo = work_repo(tmp_path / "g", GREP, {})
    counter = repo.path / ".git" / "gate" / "attempts.json"
    repo.write({"check.sh": f"echo '{{}}' > {counter} 2>/dev/null; rm -f {counter}\n"
                            "grep -qx 3 answer.txt\n"})
    answers = [gate_submit(repo, "--max-attempts", "2") for _ in (1, 2)]
    assert [(code, a["attempt"]) for code, a in answers] == [(1, 1), (1, 2)]
    key = f"change {repo.git('rev-parse', 'main').strip()}"
    assert json.loads(counter.read_text())[key]["used"] == 2
    assert gate_submit(repo, "--max-attempts", "2")[0] == 5


def test_the_attempts_live_in_the_git_dir_outside_every_checkout(grep_repo: Repo) -> None:
    code, answer = gate_submit(grep_repo)
    assert (code, answer["attempt"]) == (1, 1)
    where = attempts.directory(str(grep_repo.path))
    assert where == str(grep_repo.path / ".git" / "gate")
    main = grep_repo.git("rev-parse", "main").strip()
    here = grep_repo.git("rev-parse", "HEAD").strip()
    key = attempts.change_key(str(grep_repo.path), main, here)
    assert key == f"change {main}"
    assert attempts.read(str(grep_repo.path), key).used == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--branch", "work"], "--branch work is the branch checked out here"),
    (["--branch", "bad..name"], "--branch 'bad..name' is not a valid branch name"),
    (["--max-attempts", "0"], "--max-attempts must be at least 1"),
    (["--max-attempts", "4"], "--max-attempts 4 is more than the cap of 3 (the default)"),
    (["--base", "no-such-base"], "unknown ref 'no-such-base'"),
    (["--open-pr"], "--open-pr needs a token and a repository"),
])
def test_bad_input_is_exit_2_before_anything_is_counted(grep_repo: Repo, args: list[str],
                                                        message: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GATE_GITHUB_TOKEN")}
    done = subprocess.run([sys.executable, "-m", "gate", "submit", "--base", "main", *args],
                          cwd=grep_repo.path, capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (grep_repo.path / ".git" / "gate").exists()
    assert "gate/submit" not in grep_repo.git("branch", "--list")


def test_a_suite_that_fails_at_base_too_is_not_the_changes_fault(tmp_path: Path) -> None:
    """The project's setup is broken at the base: the model is not sent to change code."""
    repo = work_repo(tmp_path / "g", {**GREP, "answer.txt": "3\n"}, {"notes.txt": "hello\n"})
    code, answer = gate_submit(repo)
    assert (code, answer["verdict"], answer["fault"]) == (2, None, "infrastructure")
    assert "every failure that decided the verdict happens on the base too (suite: " in (
        answer["feedback"])
    assert "This is not the change's fault: do not change any code for it." in (
        answer["feedback"])
    assert "1. suite (failed, required): 0 of 1 runs passed" in answer["feedback"]


def test_its_twin_a_regression_is_the_changes_fault(grep_repo: Repo) -> None:
    code, answer = gate_submit(grep_repo)
    assert (code, answer["verdict"], answer["fault"]) == (1, "fail", "change")
    assert "baseline: regression, passes at base" in answer["feedback"]


def test_a_pass_whose_push_fails_says_so_and_is_not_the_changes_fault(
        grep_repo: Repo, tmp_path: Path) -> None:
    grep_repo.write({"answer.txt": "2\n"})
    grep_repo.git("remote", "add", "origin", str(tmp_path / "no-such-remote.git"))
    env = {**os.environ, "GITHUB_TOKEN": "t0ken", "GITHUB_REPOSITORY": REPO,
           "GITHUB_API_URL": "http://127.0.0.1:9/api/v3"}
    done = subprocess.run([sys.executable, "-m", "gate", "submit", "--base", "main",
                           "--open-pr", "--format", "json"], cwd=grep_repo.path,
                          capture_output=True, text=True, env=env)
    answer = json.loads(done.stdout)
    assert (done.returncode, answer["verdict"], answer["fault"]) == (2, "pass", "infrastructure")
    assert "The change passed, but the pull request was not opened: git push" in (
        answer["feedback"])
    assert "pull_request" not in answer


def test_the_text_format_prints_the_feedback_and_the_progress_apart(grep_repo: Repo) -> None:
    done = subprocess.run([sys.executable, "-m", "gate", "submit", "--base", "main"],
                          cwd=grep_repo.path, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout.startswith("gate submit: fail for branch gate/submit/work at ")
    assert "1. suite (failed, required): 0 of 1 runs passed" in done.stdout
    assert "suite: run 1 of 1" in done.stderr and "suite: run 1" not in done.stdout
