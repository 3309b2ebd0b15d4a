"""The boundary sealed (issue 22): nothing the judged code wrote runs outside it, nothing it
protects can be swapped, nothing crosses from one command or run to the next.

Each attack is a broken change (`add` subtracts) whose install or tests try to get it past
the gate; the same attack under `--isolation off` shows it is real (the forged pass, the
program run by the gate's own git). The gate runs are module-scoped and shared: one judged
repository holds the attacks that do not interfere."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate.errors import GateError
from gate.execution import bwrap, isolation
from gate.execution.environment import CiEnvironment
from gate.vcs import git

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")

PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
# A conftest that reports every failure as a pass: planted above the checkout, with a
# pytest.ini there that makes that directory pytest's rootdir.
CONFTEST = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
            "def pytest_runtest_makereport(item, call):\n"
            "    outcome = yield\n"
            "    report = outcome.get_result()\n"
            "    report.outcome = 'passed'\n")


def install_script(evidence: Path) -> str:
    """The install, as an attacker writes it: git config that runs a program, files above the
    checkout, a dotfile in HOME; each step notes whether it was refused."""
    ran = evidence / "git-ran"
    program = f"sh -c 'echo $0 >> {ran}'"
    return f"""
import os, subprocess, sys
ev = {str(evidence)!r}
def note(name):  # to the install's output: in the boundary nothing else leaves it
    print('GATE-EVIDENCE', name, flush=True)
for key, value in [('core.fsmonitor', {program + ' fsmonitor'!r}),
                   ('core.hooksPath', '/nonexistent-but-planted'),
                   ('filter.attack.clean', {program + ' filter'!r}),
                   ('diff.external', {program + ' diff'!r}),
                   ('include.path', os.path.abspath('planted.gitconfig'))]:
    done = subprocess.run(['git', 'config', key, value], capture_output=True)
    note(('wrote-' if done.returncode == 0 else 'refused-') + key)
with open('planted.gitconfig', 'w') as f:
    f.write({'[core]' + chr(10) + chr(9) + 'fsmonitor = ' + program + ' include' + chr(10)!r})
with open('.gitattributes', 'a') as f:
    f.write('*.py filter=attack\\n')
above = os.path.dirname(os.getcwd())
for name, text in [('pytest.ini', '[pytest]\\n'), ('conftest.py', {CONFTEST!r}),
                   ('.cargo/config.toml', '[build]\\nrustflags = ["--cfg", "attack"]\\n')]:
    tmp = os.environ.get('ATTACK_TMP', '/tmp')  # under off: the test's own
    for where in (above, tmp):
        try:
            os.makedirs(os.path.dirname(os.path.join(where, name)), exist_ok=True)
            with open(os.path.join(where, name), 'w') as f:
                f.write(text)
            note('planted-' + name + ('-tmp' if where == tmp else ''))
        except OSError:
            note('refused-' + name)
with open(os.path.expanduser('~/.gate-attack'), 'w') as f:
    f.write('x')
"""


class Judged:
    def __init__(self, where: Path, head: dict[str, str], toml: str) -> None:
        self.evidence = where / "evidence"
        self.evidence.mkdir(parents=True)
        base = {".gate.toml": toml, "calc.py": "def add(a, b):\n    return a + b\n",
                "tests/test_calc.py": TEST_ADD}
        self.repo, _, _ = make_change(where / "repo", base, head)

    def judge(self, mode: str, *args: str,
              env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
        proc = subprocess.run(
            [sys.executable, "-m", "gate", "run", "--repo", str(self.repo.path), "--base",
             "main", "--head", "change", "--format", "json", "--isolation", mode,
             "--logs", str(self.evidence.parent / "logs"), *args],
            capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})
        report = json.loads(proc.stdout) if proc.stdout.strip() else {}
        return proc.returncode, report, proc.stderr

    def found(self) -> set[str]:
        """What the attack noted (in its commands' logs), and what ran outside the boundary
        (in the evidence directory)."""
        noted = {line.split(" ", 1)[1]
                 for log in (self.evidence.parent / "logs").glob("*.log")
                 for line in log.read_text(errors="replace").splitlines()
                 if line.startswith("GATE-EVIDENCE ")}
        return noted | {p.name for p in self.evidence.iterdir()}


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A broken change whose install sets git config that runs programs, plants pytest.ini,
    conftest.py and .cargo/config.toml above the checkout and in /tmp, and a HOME dotfile;
    judged with the boundary, then without."""
    out: dict[str, Any] = {}
    for mode in ("required", "off"):
        where = tmp_path_factory.mktemp(f"planted-{mode}")
        evidence = where / "evidence"
        judged = Judged(where, {"calc.py": BROKEN, "attack.py": install_script(evidence)}, "")
        # Under off the attack would plant a conftest that turns failures into passes in
        # the machine's own /tmp, for every later pytest there: it gets a /tmp of the test's.
        own_tmp = {} if mode == "required" else {"ATTACK_TMP": str(where / "tmp")}
        code, report, err = judged.judge(mode, "--install", f"{sys.executable} attack.py",
                                         "--test", PYTEST, "--runs", "1", env=own_tmp)
        out[mode] = (code, report, err, judged.found())
    return out


@pytest.mark.slow
@needs_boundary
def test_git_config_written_by_the_install_runs_nothing_outside_the_boundary(
    planted: dict[str, Any]
) -> None:
    """The checkout's .git is read-only inside the boundary: fsmonitor, hooks, a clean filter,
    an external diff and an include.path are all refused, and the gate's own git (after the
    install, on that checkout) runs none of them."""
    _, _, _, found = planted["required"]
    keys = ("core.fsmonitor", "core.hooksPath", "filter.attack.clean", "diff.external",
            "include.path")
    assert {f"refused-{k}" for k in keys} <= found
    assert not any(f.startswith("wrote-") for f in found)
    assert "git-ran" not in found


@pytest.mark.slow
@needs_boundary
def test_without_the_boundary_the_gates_own_git_reads_what_the_install_wrote(
    planted: dict[str, Any]
) -> None:
    """The attack is real: under `off` every key is written; the pins on the gate's own git
    (no fsmonitor, no hooks) still keep it from running the fsmonitor program."""
    _, _, _, found = planted["off"]
    assert {"wrote-core.fsmonitor", "wrote-filter.attack.clean", "wrote-include.path"} <= found


@pytest.mark.slow
@needs_boundary
def test_config_planted_above_the_checkout_is_refused_and_the_broken_change_fails(
    planted: dict[str, Any]
) -> None:
    code, report, err, found = planted["required"]
    assert (code, report["verdict"]) == (1, "fail"), err
    assert check(report, "suite")["status"] == "failed"
    assert {"refused-pytest.ini", "refused-conftest.py", "refused-.cargo/config.toml"} <= found
    # /tmp is the command's own: what the install wrote there is gone for the tests
    assert "planted-pytest.ini-tmp" in found


@pytest.mark.slow
@needs_boundary
def test_without_the_boundary_config_above_the_checkout_is_planted_but_not_read(
    planted: dict[str, Any]
) -> None:
    """Without the boundary the plants land, and pytest is still pinned to the checkout (it
    has no configuration of its own: `-c` an empty one, `--rootdir`, `--confcutdir`): the
    conftest that makes failures passes is not loaded. That plain pytest would load it is
    shown in tests/outcomes/test_pytest_pins.py."""
    _, report, err, found = planted["off"]
    assert {"planted-pytest.ini", "planted-conftest.py", "planted-.cargo/config.toml"} <= found
    assert check(report, "suite")["status"] == "failed", err


HOME_READER = ("import os\n\n\ndef test_home():\n"
               "    assert os.path.exists(os.path.expanduser('~/.gate-attack'))\n")


@pytest.mark.slow
@needs_boundary
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_home_dotfile_from_one_run_does_not_reach_the_next(
    tmp_path: Path, mode: str
) -> None:
    """Run one's install writes ~/.gate-attack; run two's test passes only if it is there."""
    writer = Judged(tmp_path / "w", {"README": "x\n"}, "")
    touch = f"{sys.executable} -c \"import os; open(os.path.expanduser('~/.gate-attack'), 'w')\""
    writer.judge(mode, "--install", touch, "--test", PYTEST, "--runs", "1")
    reader = Judged(tmp_path / "r", {"tests/test_home.py": HOME_READER}, "")
    _, report, err = reader.judge(mode, "--install", "true", "--test", PYTEST, "--runs", "1")
    status = check(report, "suite")["status"]
    assert status == ("failed" if mode == "required" else "passed"), err
    if mode == "off":
        os.unlink(os.path.expanduser("~/.gate-attack"))


POISON = """\
import glob, os, sys
from calc import add


def test_add():
    assert add(2, 3) == -1
    # After the suite's run: a .pth in the environment that gives base-tests a working add.
    site = glob.glob(os.path.join(sys.prefix, 'lib', 'python*', 'site-packages'))[0]
    with open(os.path.join(site, 'zz_attack.pth'), 'w') as f:
        f.write("import sys, types; m = types.ModuleType('calc'); "
                "m.add = lambda a, b: a + b; sys.modules['calc'] = m\\n")
"""


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory,
             wheelhouse: Path) -> dict[str, tuple[int, dict[str, Any], str]]:
    """A broken change that rewrites its test to match, and whose test poisons the
    environment during the suite so that base-tests (the base's test over the head's code)
    passes; judged with the boundary and without."""
    out = {}
    for mode in ("required", "off"):
        where = tmp_path_factory.mktemp(f"poison-{mode}")
        judged = Judged(where, {"calc.py": BROKEN, "tests/test_calc.py": POISON,
                                "pyproject.toml": '[project]\nname = "calc"\nversion = "0"\n'},
                        "")
        venv_pytest = "python -m pytest -q -p no:cacheprovider"
        # the wheelhouse is named by the environment: visible (read-only) in the boundary
        offline = {"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"}
        out[mode] = judged.judge(mode, "--install", "python -m pip install -q pytest",
                                 "--test", venv_pytest, "--runs", "2", env=offline)
    return out


@pytest.mark.slow
@needs_boundary
def test_the_environment_poisoned_during_the_suite_does_not_reach_base_tests(
    poisoned: dict[str, tuple[int, dict[str, Any], str]]
) -> None:
    _, report, err = poisoned["required"]
    assert check(report, "suite")["status"] == "passed", err  # run 2 saw no .pth either
    assert check(report, "base-tests")["status"] == "failed"
    assert report["verdict"] != "pass"


@pytest.mark.slow
@needs_boundary
def test_without_the_boundary_the_poisoned_environment_fools_base_tests(
    poisoned: dict[str, tuple[int, dict[str, Any], str]]
) -> None:
    _, report, err = poisoned["off"]
    assert check(report, "base-tests")["status"] == "passed", err


RENAME = """\
import os, shutil


def test_swap():
    for target in {targets!r}:
        try:
            os.rename(target, target + '-old')
            os.makedirs(target)
            print('swapped', target)
        except OSError as e:
            print('refused', target, e)
"""


@pytest.mark.slow
@needs_boundary
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_protected_directory_renamed_and_replaced(tmp_path: Path, mode: str) -> None:
    """In the Action's layout (the gate's environment and the report under RUNNER_TEMP) and
    under the cache (base outcomes): with the boundary no parent is writable, so the rename
    is refused; without it the directories are swapped, and the gate sees it and stops."""
    runner = tmp_path / "runner-temp"
    (runner / "gate-venv").mkdir(parents=True)
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gate"
    (cache / "base-outcomes").mkdir(parents=True, exist_ok=True)
    targets = [str(runner / "gate-venv"), str(cache)]
    judged = Judged(tmp_path, {"tests/test_swap.py": RENAME.format(targets=targets)}, "")
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(judged.repo.path), "--base", "main",
         "--head", "change", "--format", "json", "--isolation", mode, "--install", "true",
         "--test", PYTEST.replace("-q", "-q -s"), "--runs", "1",
         "--report", str(runner / "gate-report.json")],
        capture_output=True, text=True, timeout=300, env={**os.environ, "RUNNER_TEMP": str(runner)})
    if mode == "required":
        assert proc.returncode == 0, proc.stderr
        assert (runner / "gate-venv").is_dir() and not (runner / "gate-venv-old").exists()
        assert not (cache.parent / "gate-old").exists()
    else:
        assert (runner / "gate-venv-old").is_dir()  # the attack is real
        assert (cache.parent / "gate-old").is_dir()


def test_a_protected_path_swapped_between_commands_stops_the_gate(tmp_path: Path) -> None:
    """Fail closed: a protected path that is no longer the same file (device and inode) is a
    GateError (exit 2) that names it, before the next command and at the end."""
    guarded = tmp_path / "guarded"
    guarded.mkdir()
    boundary = isolation.Boundary(isolation.OFF.isolation, "bwrap", (str(guarded),),
                                  identities=isolation.identities([str(guarded)]))
    boundary.verify()
    guarded.rename(tmp_path / "away")
    guarded.mkdir()
    with pytest.raises(GateError, match=str(guarded)):
        boundary.verify()
    with pytest.raises(GateError, match="no longer the same file"):
        boundary.wrap(["true"], root=str(tmp_path), cwd=str(tmp_path), tmp=str(tmp_path))


@pytest.mark.parametrize("key", ["core.fsmonitor", "include.path"])
def test_the_gates_git_on_a_checkout_runs_no_program_its_config_names(
    tmp_path: Path, key: str
) -> None:
    """Even where the checkout's config could be written (no boundary), the gate's own git on
    it runs no fsmonitor and no hook; the world outside the boundary is the gate's."""
    repo, _, _ = make_change(tmp_path / "r", {"a.py": "a\n"}, {"a.py": "b\n"})
    ran = tmp_path / "ran"
    program = f"sh -c 'touch {ran}'"
    if key == "include.path":
        planted = tmp_path / "planted.gitconfig"
        planted.write_text(f"[core]\n\tfsmonitor = {program}\n")
        value = str(planted)
    else:
        value = program
    subprocess.run(["git", "-C", str(repo.path), "config", key, value], check=True)
    (repo.path / "a.py").write_text("changed\n")
    assert git.worktree_changes(str(repo.path)) == ["a.py"]
    assert not ran.exists()


CARGO_TOML = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'
CARGO_TEST = "#[test]\nfn adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n"
# Right only where `--cfg attack` is given: by a .cargo/config.toml above the checkout.
CFG_ADD = ("#[allow(unexpected_cfgs)]\npub fn add(a: i32, b: i32) -> i32 {\n"
           "    if cfg!(attack) { a + b } else { a - b }\n}\n")
PLANT_CARGO = ("mkdir -p ../.cargo && printf '[build]\\nrustflags = [\"--cfg\", \"attack\"]\\n' "
               "> ../.cargo/config.toml || true")


@pytest.mark.slow
@needs_boundary
@pytest.mark.usefixtures("cargo_env")
@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_cargo_config_planted_above_the_checkout_is_not_read(tmp_path: Path, mode: str) -> None:
    """cargo reads `.cargo/config.toml` in every directory above the one it runs in: the
    install plants one that gives the broken `add` the flag that makes it right. Without the
    boundary the suite passes; with it the plant is refused and the suite fails."""
    repo, _, _ = make_change(
        tmp_path / "repo",
        {"Cargo.toml": CARGO_TOML, "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n"
         "    a + b\n}\n", "tests/adds.rs": CARGO_TEST},
        {"src/lib.rs": CFG_ADD})
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
         "--head", "change", "--format", "json", "--isolation", mode, "--install", PLANT_CARGO,
         "--test", "cargo test -q", "--runs", "1"],
        capture_output=True, text=True, timeout=600)
    report = json.loads(proc.stdout)
    suite = check(report, "suite")
    assert suite["status"] == ("failed" if mode == "required" else "passed"), proc.stderr


@needs_boundary
def test_a_command_after_the_install_writes_nothing_the_next_one_sees(tmp_path: Path) -> None:
    """One command, as the gate starts it after the install: its writes to the checkout, the
    environment, HOME, TMPDIR and the rest of the run's root go with its overlay of the root;
    a file the scratch directory already holds (an earlier report, a shard's split) is
    read-only; its own new report lands; above the checkout and in the host's /tmp nothing
    lands. A file moved from the checkout into TMPDIR and back is moved (one file system, as
    on a CI runner: sloria/environs's test moves its .env to `tmp_path`, which was EXDEV
    across an overlay of the checkout and a tmpfs of TMPDIR)."""
    from gate.execution.run_workspace import Workspace

    root = tmp_path / "gate-run"
    for name in ("checkout", "env", "home", "scratch", "tmp"):
        (root / name).mkdir(parents=True)
    (root / "checkout" / ".git").mkdir()
    (root / "scratch" / "shard-split-head.json").write_text("[]")
    (root / "checkout" / ".env").write_text("A=1\n")
    boundary = isolation.choose("required")
    env = {"PATH": os.environ["PATH"], "VIRTUAL_ENV": str(root / "env"),
           "TMPDIR": str(root / "tmp"), "HOME": str(root / "home")}
    ws = Workspace(str(root / "checkout"), str(root / "scratch"), env, 60, (),
                   None, boundary, str(root / "home"), sealed=True)
    script = (
        "for f in checkout/mine env/mine home/.dotfile checkout/.git/config "
        "scratch/shard-split-head.json scratch/suite-1.xml mine.ini; do "
        f"  if echo x > {root}/$f 2>/dev/null; then echo wrote $f; else echo refused $f; fi; "
        "done; echo x > /tmp/host-tmp && echo wrote tmp; "
        f"mv {root}/checkout/.env {root}/tmp/.env && mv {root}/tmp/.env {root}/checkout/.env2 "
        "&& echo moved")
    done = subprocess.run(ws.wrap(["sh", "-c", script], str(root / "checkout")), env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.split("\n") == [
        "wrote checkout/mine", "wrote env/mine", "wrote home/.dotfile",
        "refused checkout/.git/config", "refused scratch/shard-split-head.json",
        "wrote scratch/suite-1.xml", "wrote mine.ini", "wrote tmp", "moved", ""]
    assert sorted(p.name for p in root.rglob("*") if p.is_file()) == [
        ".env", "shard-split-head.json", "suite-1.xml"]
    assert (root / "checkout" / ".env").read_text() == "A=1\n"
    assert (root / "scratch" / "shard-split-head.json").read_text() == "[]"
    assert not Path("/tmp/host-tmp").exists()


@needs_boundary
@pytest.mark.parametrize("trusted", [False, True])
def test_only_a_trusted_install_writes_the_installers_caches(tmp_path: Path,
                                                             trusted: bool) -> None:
    """The install, as the gate starts it: the head's (untrusted) sees the caches through an
    overlay, so what it plants there is gone with it; the base's warms them. Both write their
    checkout and environment."""
    from gate.execution.run_workspace import Workspace

    root = tmp_path / "gate-run"
    for name in ("checkout", "env", "home", "scratch", "tmp", "cache"):
        (root / name).mkdir(parents=True)
    (root / "cache" / "old-entry").write_text("kept")
    env = {"PATH": os.environ["PATH"], "VIRTUAL_ENV": str(root / "env"),
           "TMPDIR": str(root / "tmp"), "HOME": str(root / "home")}
    ws = Workspace(str(root / "checkout"), str(root / "scratch"), env, 60, (), None,
                   isolation.choose("required"), str(root / "home"), (str(root / "cache"),),
                   warms_caches=trusted)
    script = (f"cat {root}/cache/old-entry && echo x > {root}/cache/planted && "
              f"echo x > {root}/cache/old-entry && echo x > {root}/checkout/built && "
              f"echo x > {root}/env/installed && cat {root}/cache/planted")
    done = subprocess.run(ws.wrap(["sh", "-c", script], str(root / "checkout")), env=env,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "keptx\n"), done.stderr  # saw its own writes
    assert (root / "checkout" / "built").exists() and (root / "env" / "installed").exists()
    assert (root / "cache" / "planted").exists() is trusted
    assert (root / "cache" / "old-entry").read_text() == ("x\n" if trusted else "kept")


@needs_boundary
def test_without_overlays_the_heads_install_gets_caches_of_the_runs_own(tmp_path: Path) -> None:
    """Where the kernel refuses overlays, the user's caches are read-only to the head's
    install (as the rest of the world): it is given empty ones under the run's HOME, by the
    variables that name them."""
    from gate.execution.environment import own_caches

    home = tmp_path / "home"
    caches = own_caches({"PIP_CACHE_DIR": "/u/.cache/pip", "UV_CACHE_DIR": "/u/.cache/uv",
                         "cargo registry": "/u/.cargo/registry"}, str(home))
    assert caches == {"PIP_CACHE_DIR": f"{home}/.cache/gate-own/pip_cache_dir",
                      "UV_CACHE_DIR": f"{home}/.cache/gate-own/uv_cache_dir"}


@needs_boundary
def test_every_directory_a_list_names_under_tmp_stays_visible(tmp_path: Path) -> None:
    """pip takes several find-links directories separated by spaces: each one under the
    host's /tmp is bound (read-only) into the boundary, as one alone is."""
    first, second = tmp_path / "wheels", tmp_path / "links"
    for d in (first, second, tmp_path / "run" / "tmp"):
        d.mkdir(parents=True)
    boundary = isolation.choose("required")
    env = {"PIP_FIND_LINKS": f"{first} {second}", "PATH": os.environ["PATH"]}
    argv = boundary.wrap(["ls", str(first), str(second)], root=str(tmp_path / "run"),
                         cwd="/", tmp=str(tmp_path / "run" / "tmp"), env=env)
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@needs_boundary
@pytest.mark.parametrize("sealed", [False, True])
def test_without_overlays_no_command_is_given_one(tmp_path: Path, sealed: bool) -> None:
    """Where the kernel refuses overlays, the toolchains and the user's caches stay read-only
    (as the rest of the world), and no command asks bubblewrap for an overlay it would fail
    on: the head's install and tests write only their checkout, environment, HOME (where
    their caches then are) and scratch."""
    import dataclasses

    from gate.execution.run_workspace import Workspace

    root = tmp_path / "gate-run"
    for name in ("checkout", "env", "home", "scratch", "tmp", "cache", "cargo"):
        (root / name).mkdir(parents=True)
    boundary = dataclasses.replace(isolation.choose("required"), overlays=False)
    env = {"PATH": os.environ["PATH"], "VIRTUAL_ENV": str(root / "env"),
           "TMPDIR": str(root / "tmp"), "HOME": str(root / "home")}
    ws = Workspace(str(root / "checkout"), str(root / "scratch"), env, 60, (), None, boundary,
                   str(root / "home"), (str(root / "cache"),), (str(root / "cargo"),),
                   sealed=sealed)
    script = "; ".join(f"echo x > {root}/{d}/f 2>/dev/null && echo wrote {d}"
                       for d in ("checkout", "cache", "cargo", "home"))
    argv = ws.wrap(["sh", "-c", script], str(root / "checkout"))
    assert "--overlay-src" not in argv
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["wrote", "checkout", "wrote", "home"], done.stderr


@needs_boundary
@pytest.mark.parametrize("overlays", [True, False])
def test_the_heads_workspace_names_the_caches_it_may_not_warm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, overlays: bool) -> None:
    """The workspaces the gate makes: the head's does not warm the user's caches (with
    overlays it sees them through one; without, its variables name empty ones of the run's
    own); the base's does."""
    import dataclasses

    from gate.execution.fresh_environment import workspace_for

    user_cache = tmp_path / "user-pip-cache"
    user_cache.mkdir()
    monkeypatch.setenv("PIP_CACHE_DIR", str(user_cache))
    boundary = dataclasses.replace(isolation.choose("required"), overlays=overlays)
    made = {}
    for trusted in (False, True):
        root = tmp_path / f"root-{trusted}"
        (root / "checkout").mkdir(parents=True)
        made[trusted] = workspace_for(str(root), str(root / "checkout"), 60, (), boundary,
                                      trusted=trusted, venv=lambda: None,
                                      pin=lambda checkout, env: {}, plugin_dir="",
                                      ci=CiEnvironment())
    head, base = made[False], made[True]
    assert (head.warms_caches, base.warms_caches) == (False, True)
    assert base.env["PIP_CACHE_DIR"] == str(user_cache)
    if overlays:
        assert head.env["PIP_CACHE_DIR"] == str(user_cache)
    else:
        assert head.env["PIP_CACHE_DIR"].startswith(head.home + os.sep)
        assert os.path.isdir(head.env["PIP_CACHE_DIR"])


SITE_READER = """\
import json, sys
from gate.execution import site_hooks
env = {{"VIRTUAL_ENV": {venv!r}}}
print(json.dumps([site_hooks.running(env), len(site_hooks.recorded(env))]))
"""


def test_what_the_install_leaves_in_the_environment_cannot_hang_the_gate(
        tmp_path: Path) -> None:
    """The gate reads the environment's .pth files and RECORDs after the install (what it
    left where every start runs it): a .pth that is a FIFO (an open would wait for a writer
    for ever) and a RECORD linked to /dev/zero (an endless line) are not read; a real hook
    still is."""
    site = tmp_path / "env" / "lib" / "python3.11" / "site-packages"
    (site / "evil-1.0.dist-info").mkdir(parents=True)
    os.mkfifo(site / "zz_fifo.pth")
    (site / "evil-1.0.dist-info" / "RECORD").symlink_to("/dev/zero")
    (site / "hook.pth").write_text("import os\n")
    done = subprocess.run([sys.executable, "-c", SITE_READER.format(venv=str(tmp_path / "env"))],
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == [["hook.pth"], 0], done.stderr


REPORT_READER = """\
import json
from gate.outcomes.runners import pytest as runner
report = {report!r}
counts = runner.parse("", report)
print(json.dumps([counts.passed if counts else None]))
"""


def test_what_a_test_leaves_beside_its_report_cannot_hang_the_gate(tmp_path: Path) -> None:
    """A test knows its report's path (GATE_JUNIT) and may write beside it: a FIFO as another
    session's report, or a link to /dev/zero, is not read; the real report still is (the
    plugin list, fingerprint and running test come on the evidence channel, not in files)."""
    report = tmp_path / "suite-1.xml"
    report.with_name("suite-1.xml.0").write_text(
        '<testsuite><testcase classname="t" name="test_a" file="t.py"/></testsuite>')
    for name in ("suite-1.xml.1", "suite-1.xml.0.plugins", "suite-1.xml.0.fingerprint",
                 "suite-1.xml.0.running"):
        os.mkfifo(tmp_path / name)
    (tmp_path / "suite-1.xml.2").symlink_to("/dev/zero")
    (tmp_path / "suite-1.xml.2.fingerprint").symlink_to("/dev/zero")
    done = subprocess.run([sys.executable, "-c", REPORT_READER.format(report=str(report))],
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == [1], done.stderr


LOCATOR = """\
from gate.outcomes.location import locate
from gate.outcomes.record import CaseResult, Counts
cases = (CaseResult("TestAdd", None, None, "failed"),)
found = locate(Counts("go test", passed=0, failed=1, skipped=0, cases=cases), {root!r})
print(found.cases[0].file, found.cases[0].line)
"""


def test_a_fifo_the_install_left_among_the_test_files_cannot_hang_the_gate(
        tmp_path: Path) -> None:
    """The gate looks for a failing test's definition in the checkout's test files, which
    the install may have added to: a FIFO named like one is not opened."""
    (tmp_path / "a_test.go").write_text("package a\n\nfunc TestAdd(t *testing.T) {}\n")
    os.mkfifo(tmp_path / "0_test.go")
    done = subprocess.run([sys.executable, "-c", LOCATOR.format(root=str(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["a_test.go", "3"], done.stderr


def test_the_gates_own_files_in_the_scratch_directory_replace_a_link_left_there(
        tmp_path: Path) -> None:
    """The install runs before the gate writes a shard's test durations into the scratch
    directory (which the install may write): a link it left at that path is replaced, and
    the file it pointed to (the user's) is untouched."""
    from gate.shards import split
    from gate.shards.spec import Shard

    victim = tmp_path / "victim"
    victim.write_text("the user's\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "shard-durations-head.json").symlink_to(victim)
    os.mkfifo(scratch / "shard-split-head.json")
    how = split.split("python -m pytest", str(tmp_path), [], Shard(1, 2), {"t.py": 1.0},
                      str(scratch), "head")
    assert victim.read_text() == "the user's\n"
    assert json.loads((scratch / "shard-durations-head.json").read_text()) == {"t.py": 1.0}
    assert how.whole() is None  # the FIFO where the runner's split goes is not read


def test_a_mutant_is_never_written_through_a_link_the_install_made(tmp_path: Path) -> None:
    """pinned copies the checkout and writes each mutant into the copy, outside the
    boundary: a source file the install replaced by a link to one of the user's files is
    replaced in the copy; the user's file is untouched."""
    from gate.execution.run_workspace import Workspace
    from gate.mutants.mutant import Mutant
    from gate.pinned import runs

    victim = tmp_path / "victim.py"
    victim.write_text("def add(a, b):\n    return a + b\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "calc.py").symlink_to(victim)
    (tmp_path / "scratch").mkdir()
    ws = Workspace(str(checkout), str(tmp_path / "scratch"), {"PATH": os.environ["PATH"]}, 60)
    plus = victim.read_bytes().index(b"+")
    mutant = Mutant("calc.py", 2, "arithmetic", plus, plus + 1, b"-", "a + b", "a - b")
    done = runs.mutants(ws, str(tmp_path / "copies"), "grep -q 'a - b' calc.py", [mutant],
                        lambda path: [], seconds=60, workers=1,
                        limits=runs.Limits(lambda tests: 60.0, 60.0))
    assert done[0].run is not None and done[0].run.completed.ok  # the copy held the mutant
    assert victim.read_text() == "def add(a, b):\n    return a + b\n"


CHECKOUT_READER = """\
from gate.checks.harness import leftovers
from gate.outcomes import detect, scoped_command
from gate.shards import split
from gate.shards.spec import Shard
root = {root!r}
found = leftovers.in_checkout(root)
print(sorted(f.path for f in found if "not a file" in f.message))
print(detect.test_command(root), detect.install_command(root))
print(scoped_command.js_runner("npm test", root))
print(split.split("mocha", root, ["test/a.js"], Shard(1, 2), {{}}, root, "head").how)
"""


def test_what_the_install_leaves_in_the_checkout_cannot_hang_the_gate(tmp_path: Path) -> None:
    """The gate reads the checkout after the install (detection, scoping, sharding): a
    tracked file the install replaced by a FIFO, or by a link to /dev/zero, is removed and
    named (harness); an untracked FIFO, which git does not list, is read as no file."""
    from helpers.gitrepo import Repo

    repo = Repo(tmp_path / "checkout")
    repo.commit({"pyproject.toml": "[project]\nname = 'x'\n", "requirements.txt": "x\n",
                 "test/a.js": "\n"})
    root = repo.path
    (root / "pyproject.toml").unlink()
    os.mkfifo(root / "pyproject.toml")
    (root / "requirements.txt").unlink()
    (root / "requirements.txt").symlink_to("/dev/zero")
    os.mkfifo(root / "package.json")  # untracked
    done = subprocess.run([sys.executable, "-c", CHECKOUT_READER.format(root=str(root))],
                          capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert lines[:2] == ["['pyproject.toml', 'requirements.txt']", "None npm install"], done.stderr
    assert not (root / "pyproject.toml").exists() and not os.path.lexists(root / "requirements.txt")
    assert len(lines) == 4
