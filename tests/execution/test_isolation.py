"""The isolation boundary, attacked: a head whose test goes for the gate itself (issue 13).

Each attack is a real test in a real repository, judged by a real `gate run` in its own
process with `--isolation required`; the test records in an evidence directory what it tried
and what it achieved. With the boundary, the verdict and the report are the gate's own, and
nothing was achieved; `--isolation off` runs of the same attacks show that they are real."""
from __future__ import annotations

import ast
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

import gate
from gate.errors import GateError
from gate.execution import bwrap, isolation, protected

PYTEST = f"{sys.executable} -m pytest -q -s -p no:cacheprovider"
MARK = "GATE-EVIDENCE"  # a line of a judged command's output: what it found, for `found()`
GATE_TOML = f'install = "true"\ntest = "{PYTEST}"\nruns = 1\n'
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
BASE = {".gate.toml": GATE_TOML, "calc.py": "def add(a, b):\n    return a + b\n",
        "tests/test_calc.py": TEST_ADD}
WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")


class Attack:
    """A repository whose head adds `tests/test_attack.py` with `body` in a passing test;
    `EVIDENCE` in the body is a directory the attack may write its findings to."""

    def __init__(self, tmp_path: Path, body: str, toml: str = GATE_TOML) -> None:
        self.evidence = tmp_path / "evidence"
        self.evidence.mkdir(parents=True)
        self.out = tmp_path / "out"
        self.out.mkdir()
        self.report = self.out / "report.json"  # the daemon's body names it beforehand
        code = (f"import os, signal, sys, time\n\nEVIDENCE = {str(self.evidence)!r}\n\n\n"
                "def note(name, text=''):\n"
                "    try:\n"
                "        with open(os.path.join(EVIDENCE, name), 'a') as f:\n"
                "            f.write(text)\n"
                "    except OSError:  # the world is read-only in the boundary: to the log\n"
                f"        print({MARK!r}, repr((name, text)), flush=True)\n\n\n"
                "def test_attack():\n" + "".join(f"    {line}\n" for line in body.splitlines()))
        self.repo, _, _ = make_change(tmp_path / "repo", {**BASE, ".gate.toml": toml},
                                      {"tests/test_attack.py": code})

    def argv(self, mode: str) -> list[str]:
        logs = self.evidence.parent / f"logs-{mode}"
        shutil.rmtree(logs, ignore_errors=True)
        return [sys.executable, "-m", "gate", "run", "--repo", str(self.repo.path),
                "--base", "main", "--head", "change", "--format", "json",
                "--report", str(self.report), "--logs", str(logs), "--isolation", mode]

    def judge(self, mode: str = "required", env: dict[str, str] | None = None,
              prefix: tuple[str, ...] = ()) -> tuple[int, dict[str, Any], str]:
        proc = subprocess.run([*prefix, *self.argv(mode)], env={**os.environ, **(env or {})},
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1, 3), proc.stderr
        return proc.returncode, json.loads(proc.stdout), proc.stderr

    def found(self) -> dict[str, str]:
        """What the attack noted: in the evidence directory (without the boundary), or in its
        commands' output (the logs: inside the boundary nothing else leaves it)."""
        seen = {p.name: p.read_text() for p in sorted(self.evidence.iterdir())}
        for log in sorted(self.evidence.parent.glob("logs-*/*.log")):
            for line in log.read_text(errors="replace").splitlines():
                if line.startswith(MARK + " "):
                    name, text = ast.literal_eval(line[len(MARK) + 1:])
                    seen[name] = seen.get(name, "") + text
        return dict(sorted(seen.items()))


def assert_untouched(attack: Attack, stdout: dict[str, Any], wait: float = 0.0) -> None:
    """The report on disk is, now and `wait` seconds later, what the gate printed."""
    time.sleep(wait)
    assert json.loads(attack.report.read_text()) == stdout
    assert stdout["isolation"]["level"] == "namespaces"


DAEMON = """
import os, sys, time
report, evidence = sys.argv[1], sys.argv[2]
def note(name, text=""):
    try:
        with open(os.path.join(evidence, name), "a") as f:
            f.write(text)
    except OSError:  # in the boundary: to the command's output (the test waits for /tmp)
        print("GATE-EVIDENCE", repr((name, text)), flush=True)
note("alive")
open("/tmp/gate-daemon-alive-" + os.path.basename(os.path.dirname(evidence)), "w").close()
devnull = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):  # it holds no pipe of the gate's: the gate waits for no one
    os.dup2(devnull, fd)
for _ in range(600):  # up to 60 s: until the gate has written its report and exited
    time.sleep(0.1)
    if os.path.exists(report) and os.path.getsize(report):
        time.sleep(1)
        try:
            with open(report, "w") as f:
                f.write('{"verdict": "pass", "forged": true}')
            note("forged")
        except OSError as e:
            note("daemon-failed", str(e))
        break
"""


def daemon_body(report: Path) -> str:
    return (f"if os.fork() == 0:\n"
            f"    os.setsid()\n"
            f"    if os.fork() == 0:  # a grandchild, in its own session, with no environment\n"
            f"        os.execve(sys.executable, [sys.executable, '-c', {DAEMON!r}, "
            f"{str(report)!r}, EVIDENCE], {{}})\n"
            f"    os._exit(0)\n"
            f"for _ in range(100):  # the daemon is on its own before the test ends\n"
            f"    if os.path.exists('/tmp/gate-daemon-alive-' + "
            f"os.path.basename(os.path.dirname(EVIDENCE))):\n"
            f"        break\n"
            f"    time.sleep(0.1)\n"
            f"note('started')\n")


@pytest.mark.slow
@needs_boundary
def test_a_detached_daemon_cannot_rewrite_the_report_after_the_gate_exits(
    tmp_path: Path,
) -> None:
    attack = Attack(tmp_path, daemon_body(tmp_path / "out" / "report.json"))
    code, report, _ = attack.judge()
    assert (code, report["verdict"]) == (0, "pass")
    assert_untouched(attack, report, wait=3)
    assert attack.found() == {"alive": "", "started": ""}


@pytest.mark.slow
@needs_boundary
def test_without_isolation_the_same_daemon_forges_the_report(tmp_path: Path) -> None:
    """The attack above is real: with `--isolation off` it rewrites the report."""
    attack = Attack(tmp_path, daemon_body(tmp_path / "out" / "report.json"))
    _, report, _ = attack.judge("off")
    assert report["isolation"]["level"] == "none"
    deadline = time.monotonic() + 20
    while "forged" not in attack.found() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert attack.found() == {"alive": "", "forged": "", "started": ""}
    assert json.loads(attack.report.read_text()) == {"verdict": "pass", "forged": True}


@pytest.mark.slow
@needs_boundary
def test_a_test_cannot_rewrite_the_gates_installed_modules(tmp_path: Path) -> None:
    package = os.path.dirname(os.path.abspath(gate.__file__))
    scripts = os.path.dirname(sys.executable)
    targets = [os.path.join(package, "_forged_by_a_test.py"),
               os.path.join(scripts, "_forged_by_a_test")]
    body = (f"for target in {targets!r}:\n"
            f"    try:\n"
            f"        open(target, 'w').write('VERDICT = \"pass\"\\n')\n"
            f"        note('wrote-' + os.path.basename(os.path.dirname(target)))\n"
            f"    except OSError as e:\n"
            f"        note('refused', e.strerror + '\\n')\n"
            f"try:\n"
            f"    open({os.path.join(package, 'cli', '__init__.py')!r}, 'r+b').close()\n"
            f"    note('opened-cli-for-writing')\n"
            f"except OSError as e:\n"
            f"    note('refused', e.strerror + '\\n')\n")
    attack = Attack(tmp_path, body)
    try:
        code, report, _ = attack.judge()
    finally:
        for target in targets:
            if os.path.exists(target):
                os.unlink(target)
    assert attack.found() == {"refused": "Read-only file system\n" * 3}
    assert (code, report["verdict"]) == (0, "pass")
    assert_untouched(attack, report)


@pytest.mark.slow
@needs_boundary
def test_a_test_cannot_read_the_gates_environment_through_proc(tmp_path: Path) -> None:
    secret = "s3cret-" + os.urandom(8).hex()
    body = (f"for pid in filter(str.isdigit, os.listdir('/proc')):\n"
            f"    note('seen', open(f'/proc/{{pid}}/cmdline', 'rb').read().split(b'\\0')[0]"
            f".decode() + '\\n')\n"
            f"    try:\n"
            f"        if {secret!r}.encode() in open(f'/proc/{{pid}}/environ', 'rb').read():\n"
            f"            note('token-found')\n"
            f"    except OSError:\n"
            f"        pass\n"
            f"assert {secret!r} not in str(os.environ)\n")
    attack = Attack(tmp_path, body)
    code, report, _ = attack.judge(env={"DEPLOY_TOKEN": secret})
    # The boundary held; the gate's watcher saw the test read another process's files.
    assert (code, report["verdict"]) == (3, "needs-review")
    harness = next(c for c in report["checks"] if c["id"] == "harness")
    assert {(f["rule"], f["path"]) for f in harness["findings"]} == {
        ("seen-at-run-time", "tests/test_attack.py")}
    assert [c["id"] for c in report["checks"] if c["findings"]] == ["harness"]
    # The run sees its own PID namespace only: bwrap's init, the shell that starts the
    # command (`bwrap.CHAIN`), the command's shell, pytest itself.
    assert attack.found() == {"seen": f"{WORKS.path}\n/bin/sh\n/bin/sh\n{sys.executable}\n"}
    assert_untouched(attack, report)
    # The attack is real: without the boundary it finds the token in the gate's environment.
    attack = Attack(tmp_path / "off", body)
    attack.judge("off", env={"DEPLOY_TOKEN": secret})
    assert "token-found" in attack.found()


def runner_files(tmp_path: Path) -> dict[str, str]:
    temp = tmp_path / "runner" / "_temp"
    commands = temp / "_runner_file_commands"
    commands.mkdir(parents=True)
    env = {"RUNNER_TEMP": str(temp)}
    for var in protected.RUNNER_FILES:
        path = commands / var.lower()
        path.write_text("")
        env[var] = str(path)
    return env


@pytest.mark.slow
@needs_boundary
def test_a_test_cannot_write_the_runners_step_files(tmp_path: Path) -> None:
    env = runner_files(tmp_path)
    body = (f"for var, path in {sorted(env.items())!r}:\n"
            f"    if var in os.environ:\n"
            f"        note('variable-' + var)\n"
            f"    try:\n"
            f"        with open(path if var != 'RUNNER_TEMP' else path + '/x', 'a') as f:\n"
            f"            f.write('FORGED=1\\n')\n"
            f"        note('wrote-' + var)\n"
            f"    except OSError as e:\n"
            f"        note('refused', e.strerror + '\\n')\n")
    attack = Attack(tmp_path, body)
    code, report, _ = attack.judge(env=env)
    assert attack.found() == {"refused": "Read-only file system\n" * len(env)}
    assert [Path(env[v]).read_text() for v in protected.RUNNER_FILES] == [""] * 5
    assert (code, report["verdict"]) == (0, "pass")
    assert_untouched(attack, report)


@pytest.mark.slow
@needs_boundary
def test_a_test_that_stops_and_kills_every_process_it_sees_cannot_stop_the_gate(
    tmp_path: Path,
) -> None:
    """The gate itself runs in a PID namespace of this test's own (util-linux `unshare`), so
    that without the boundary the attack would reach the gate and nothing else; with a
    temporary directory of its own, as its pids mean nothing to the gates outside (which
    would take its root for one left by a dead run, and the other way round)."""
    body = ("me = os.getpid()\n"
            "seen = [int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) != me]\n"
            "for pid in seen:\n"
            "    try:\n"
            "        argv = open(f'/proc/{pid}/cmdline', 'rb').read().split(b'\\0')\n"
            "        note('seen', argv[0].decode() + '\\n')\n"
            "    except OSError:\n"
            "        pass\n"
            "for sig in (signal.SIGSTOP, signal.SIGKILL):\n"
            "    for pid in seen:\n"
            "        try:\n"
            "            os.kill(pid, sig)\n"
            "        except OSError:\n"
            "            pass\n"
            "time.sleep(5)\n")
    attack = Attack(tmp_path, body)
    outer = ("unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc",
             "--kill-child")
    temp = tmp_path / "tmp"
    temp.mkdir()
    start = time.monotonic()
    code, report, _ = attack.judge(env={"TMPDIR": str(temp)}, prefix=outer)
    # The attack killed its own shell, so its own pytest went with the namespace: the suite
    # fails, by the judged code's own doing; the gate carried on and wrote its report.
    assert (code, report["verdict"]) == (1, "fail")
    assert [c["status"] for c in report["checks"][:2]] == ["passed", "failed"]
    assert time.monotonic() - start < 60
    assert_untouched(attack, report)
    # All it could see: the boundary's init, the shell that starts the command
    # (`bwrap.CHAIN`) and the shell that started pytest.
    assert attack.found() == {"seen": f"{WORKS.path}\n/bin/sh\n/bin/sh\n"}


@pytest.mark.slow
@needs_boundary
def test_a_test_that_fills_its_temporary_directory_fills_only_its_own(tmp_path: Path) -> None:
    """A test command's TMPDIR lies in its overlay of the run's root (one file system with the
    checkout, as on a CI runner): what it writes there goes with the command, and none of it
    lands on the host's disk. `tmp-size-mb` bounds the install's TMPDIR (a tmpfs of its own),
    not a test's: the overlay's writes are in memory, as a test's writes to its checkout
    always were (docs/isolation.md)."""
    body = ("import shutil, tempfile\n"
            "written = 0\n"
            "with open(os.path.join(tempfile.gettempdir(), 'fill'), 'wb') as f:\n"
            "    while written < 64 << 20:\n"
            "        f.write(b'x' * (1 << 20))\n"
            "        written += 1 << 20\n"
            "note('wrote', f'{written >> 20} MiB\\n')\n")
    attack = Attack(tmp_path, body, GATE_TOML + "tmp-size-mb = 16\n")
    free = shutil.disk_usage(tempfile.gettempdir()).free
    code, report, _ = attack.judge()
    assert attack.found() == {"wrote": "64 MiB\n"}
    assert (code, report["verdict"]) == (0, "pass")
    assert shutil.disk_usage(tempfile.gettempdir()).free > free - (64 << 20)
    assert_untouched(attack, report)


@pytest.mark.slow
@needs_boundary
def test_required_where_no_user_namespace_can_be_made_is_exit_2_with_what_to_do(
    tmp_path: Path,
) -> None:
    """The gate runs where user namespaces are forbidden (inside bubblewrap's
    `--disable-userns`): `required` stops before anything runs, `auto` goes on and warns."""
    assert WORKS is not None
    attack = Attack(tmp_path, "note('ran')\n")
    jail = (WORKS.path, "--dev-bind", "/", "/", "--unshare-user", "--disable-userns", "--")
    proc = subprocess.run([*jail, *attack.argv("required")], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith('gate: error: isolation = "required", and bubblewrap cannot '
                                  "create user namespaces here (")
    assert proc.stderr.rstrip().endswith('or set isolation = "auto" (--isolation auto) to run '
                                         "without it")
    assert attack.found() == {}
    assert not attack.report.exists()
    auto = subprocess.run([*jail, *attack.argv("auto")], capture_output=True, text=True,
                          timeout=300)
    assert auto.returncode == 0
    assert json.loads(auto.stdout)["isolation"]["level"] == "none"
    assert "gate: warning: the judged code runs without isolation: bubblewrap cannot " \
        "create user namespaces here" in auto.stderr
    assert attack.found() == {"ran": ""}


def test_outside_linux_there_is_no_isolation_and_it_is_said() -> None:
    boundary = isolation.choose("auto", platform="darwin")
    assert boundary.isolation.level == "none"
    assert boundary.isolation.detail == ("not available on darwin (Linux namespaces only): "
                                         "the judged code ran as the gate's user")
    assert boundary.isolation.warning == ("isolation is not available on darwin (Linux "
                                          "namespaces only): the judged code ran as the "
                                          "gate's user")
    assert boundary.wrap(["true"], root="/nonexistent", cwd="/", tmp="/tmp") == ["true"]
    with pytest.raises(GateError, match='isolation = "required", and isolation '
                       "is not available on darwin"):
        isolation.choose("required", platform="darwin")


USER = "gate-isolation-test"
# This interpreter's version elsewhere than under root's home (pyenv, say), for that user.
SHARED_PYTHON = next((p for p in (f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}",
                                  f"/usr/local/bin/python{sys.version_info[0]}."
                                  f"{sys.version_info[1]}") if os.access(p, os.X_OK)), None)


def _can_switch_user() -> str | None:
    if os.geteuid() != 0:
        return "creating a user needs root"
    missing = [t for t in ("useradd", "setpriv") if shutil.which(t) is None]
    if missing:
        return f"{', '.join(missing)} not installed"
    return None if SHARED_PYTHON else "no system Python of this version for another user"


def _user_id() -> int:
    if subprocess.run(["id", USER], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/false", USER],
                       check=True)
    return int(subprocess.run(["id", "-u", USER], capture_output=True, text=True).stdout)


@pytest.mark.slow
@needs_boundary
# gate: allow skip-markers -- the unprivileged route needs root to create its user
@pytest.mark.skipif(_can_switch_user() is not None, reason=str(_can_switch_user()))
def test_the_boundary_also_holds_for_a_gate_run_by_an_unprivileged_user() -> None:
    """A user of its own runs the gate (this checkout's code and dependencies, on the
    system's interpreter of the same version): the boundary needs no privilege."""
    assert SHARED_PYTHON is not None
    uid = _user_id()
    home = Path(tempfile_dir(uid))
    path = os.pathsep.join([os.path.dirname(os.path.dirname(os.path.abspath(gate.__file__))),
                            sysconfig.get_paths()["purelib"]])
    try:
        (home / ".gitconfig").write_text("[user]\n\tname = T\n\temail = t@example.com\n")
        secret = "s3cret-" + os.urandom(8).hex()
        # The user owns the report's directory: only the boundary keeps the attack out.
        forged = home / "out" / "forged.json"
        body = (f"for pid in filter(str.isdigit, os.listdir('/proc')):\n"
                f"    try:\n"
                f"        if {secret!r}.encode() in open(f'/proc/{{pid}}/environ', 'rb').read():\n"
                f"            note('token-found')\n"
                f"    except OSError:\n"
                f"        pass\n"
                f"try:\n"
                f"    open({str(forged)!r}, 'w').close()\n"
                f"    note('wrote-report-directory')\n"
                f"except OSError as e:\n"
                f"    note('refused', e.strerror + '\\n')\n")
        test = f"PYTHONPATH={path} {SHARED_PYTHON} -m pytest -q -s -p no:cacheprovider"
        attack = Attack(home, body, GATE_TOML.replace(PYTEST, test))
        subprocess.run(["chown", "-R", f"{uid}:{uid}", str(home)], check=True)
        switch = ("setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "env",
                  f"HOME={home}", f"GIT_CONFIG_GLOBAL={home / '.gitconfig'}",
                  f"TMPDIR={home}", f"DEPLOY_TOKEN={secret}", f"PYTHONPATH={path}",
                  "GATE_NO_UV=1", SHARED_PYTHON)
        proc = subprocess.run([*switch, *attack.argv("required")[1:]], capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        assert report["verdict"] == "pass"
        assert attack.found() == {"refused": "Read-only file system\n"}
        assert_untouched(attack, report)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def tempfile_dir(uid: int) -> str:
    """A directory the user `uid` owns, outside pytest's own (root-only) temporary tree."""
    import tempfile

    path = tempfile.mkdtemp(prefix="gate-isolation-user-")
    os.chown(path, uid, uid)
    return path


def test_the_judged_commands_never_see_the_runners_variables() -> None:
    from gate.execution.environment import clean_env

    env = clean_env({"PATH": "/bin", "GITHUB_ENV": "/x", "GITHUB_OUTPUT": "/x",
                     "GITHUB_PATH": "/x", "GITHUB_STEP_SUMMARY": "/x", "GITHUB_STATE": "/x",
                     "RUNNER_TEMP": "/t", "ACTIONS_RUNTIME_TOKEN": "t",
                     "ACTIONS_CACHE_URL": "u", "GITHUB_SHA": "abc"})
    assert env == {"PATH": "/bin", "GITHUB_SHA": "abc", "CI": "true"}


def test_the_text_report_and_the_json_say_which_isolation() -> None:
    from gate.models import Isolation, Report
    from gate.report import json_report, text

    report = Report("pass", "b" * 40, "a" * 40, 1.0, (),
                    Isolation("namespaces", "bubblewrap 0.11.0", warning="not in the JSON"))
    assert text.render(report).splitlines()[:2] == [
        f"gate: base {'b' * 12}, head {'a' * 12}", "isolation: namespaces (bubblewrap 0.11.0)"]
    assert list(json.loads(json_report.render(report))) == [
        "verdict", "base", "head", "duration_s", "isolation", "checks"]
    assert json.loads(json_report.render(report))["isolation"] == {
        "level": "namespaces", "detail": "bubblewrap 0.11.0"}


@pytest.mark.slow
@needs_boundary
def test_the_config_on_the_base_sets_the_level_and_the_flag_overrides_it(
    tmp_path: Path,
) -> None:
    attack = Attack(tmp_path, "note('ran')\n", GATE_TOML + 'isolation = "off"\n')
    proc = subprocess.run(attack.argv("required")[:-2], capture_output=True, text=True,
                          timeout=300)
    assert json.loads(proc.stdout)["isolation"] == {
        "level": "none", "detail": "isolation = off: the judged code ran as the gate's user, "
                                   "beside the gate's own files and processes"}
    assert "warning" not in proc.stderr
    _, report, _ = attack.judge("required")
    assert report["isolation"]["level"] == "namespaces"
    assert report["isolation"]["detail"].startswith(
        f"{WORKS.version}: user, PID, mount, IPC and UTS namespaces per command; process ids from ")
    assert "; the machine's host name; a read-only world but " in report["isolation"]["detail"]
    assert "\n" not in report["isolation"]["detail"]  # one line, not a list of paths


@pytest.mark.slow
@needs_boundary
@pytest.mark.parametrize("target", [".gitconfig", ".config/git/config"])
def test_an_install_cannot_plant_git_config_that_the_gates_own_git_runs_later(
    tmp_path: Path, target: str
) -> None:
    """The install writes a smudge filter into a global git config file and the head adds a
    .gitattributes that uses it: the checkouts the gate makes after the install (here a second,
    parallel suite run's) would run it as the gate, outside the boundary. Inside the boundary
    HOME is the run's own: both land there, and the host's files are untouched (and an XDG
    one created later would not be read by the gate's git either: `gate_git_env`)."""
    escaped = tmp_path / "escaped"
    filter_config = (f'[filter "evil"]\n\tsmudge = "sh -c \'touch {escaped}; cat\'"\n'
                     f"\trequired = true\n")
    gitconfig = Path(os.environ["HOME"]) / ".gitconfig"
    before = gitconfig.read_text()
    install = (f'mkdir -p "$(dirname "$HOME/{target}")" && '
               f'printf %s {shlex.quote(filter_config)} >> "$HOME/{target}"')
    toml = (f"install = {json.dumps(install)}\ntest = \"{PYTEST}\"\nruns = 2\n"
            "parallel = true\n")
    attack = Attack(tmp_path, "note('ran')\n", toml)
    attack.repo.commit({".gitattributes": "*.txt filter=evil\n", "data.txt": "x\n"})
    code, report, _ = attack.judge(env={"HOME": os.environ["HOME"]})
    assert not escaped.exists()
    assert gitconfig.read_text() == before
    assert (code, report["checks"][0]["status"]) == (0, "passed")
    assert not (Path(os.environ["HOME"]) / ".config" / "git" / "config").exists()
    assert report["checks"][1]["summary"] == (
        "2 of 2 runs passed, 2/2 tests (orders: project, reversed)")


@pytest.mark.slow
@needs_boundary
def test_a_gate_killed_outright_takes_the_judged_processes_with_it(tmp_path: Path) -> None:
    """SIGKILL leaves the gate no time to end anything: the boundary's commands die with it
    (bubblewrap's --die-with-parent), a detached daemon included, without waiting for the
    next run's clean-up."""
    body = daemon_body(tmp_path / "never") + "note('sleeping')\ntime.sleep(60)\n"
    attack = Attack(tmp_path, body)
    temp = tmp_path / "tmp"
    temp.mkdir()
    gate_run = subprocess.Popen(attack.argv("required"), env={**os.environ, "TMPDIR": str(temp)},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while "sleeping" not in attack.found() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "sleeping" in attack.found()  # from its log: the gate streams the output there
    [root] = (p for p in temp.iterdir() if not p.name.endswith((".venv", ".layers")))
    assert len(in_directory(root)) >= 3  # the test, its shell, the daemon (and the inits)
    gate_run.kill()
    gate_run.wait()
    deadline = time.monotonic() + 5
    while in_directory(root) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_directory(root) == []


def in_directory(directory: Path) -> list[int]:
    """The processes (host pids) whose working directory is inside `directory`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(directory) + os.sep):
                with open(f"/proc/{pid}/stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                        found.append(int(pid))
        except OSError:
            continue
    return found


@pytest.mark.slow
@needs_boundary
@pytest.mark.usefixtures("offline_pip")
def test_the_fresh_environment_shares_no_file_with_uvs_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """uv copies the packages into the environment (UV_LINK_MODE=copy): a hard link would make
    a test that rewrites an installed module rewrite the cache's copy, for every later run
    (docs/isolation.md: what the copy costs)."""
    from helpers.pyproject_fixture import project

    from gate import cli
    from gate.execution import installer

    uv = installer.find_uv()
    assert uv is not None  # the test extras install it
    copied = ("python -c \"import os, pytest, sys; "
              "sys.exit(os.stat(pytest.__file__).st_nlink != 1)\"")
    repo, _, _ = make_change(tmp_path / "r", project(), {"README": "x\n"})
    install = f"{uv} pip install -e '.[test]' && {copied}"
    code = cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head", "change",
                     "--runs", "1", "--install", install, "--isolation", "required",
                     "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["checks"][0]["status"] == "passed", report["checks"][0]
    assert (code, report["isolation"]["level"]) == (0, "namespaces")


def test_a_killed_runs_environment_beside_its_root_goes_with_the_root(tmp_path: Path) -> None:
    from gate.execution import stale, workspace

    dead = tmp_path / "gate-dead"
    dead.mkdir()
    (dead / stale.OWNER_FILE).write_text(f"{2 ** 22 + 1} 0\n")  # above any pid_max
    Path(workspace.environment_dir(str(dead))).mkdir()
    alone = tmp_path / "gate-other.venv"  # a sibling is never taken for a root itself
    alone.mkdir()
    assert workspace.clean_stale(str(tmp_path)) == [str(dead)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gate-other.venv"]


CACHE_PLANT = """
# the gate's own cache, where the attacker read it is (the judged commands' XDG_CACHE_HOME
# and HOME are the run's own inside the boundary)
cache = os.path.join({cache!r}, 'gate', 'base-outcomes')
try:
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, 'planted.json'), 'w') as f:
        f.write('{{}}')
    note('planted')
except OSError as e:
    note('refused', type(e).__name__)
"""


@pytest.mark.slow
@needs_boundary
def test_a_test_cannot_plant_base_outcomes_in_the_gates_cache(tmp_path: Path) -> None:
    """The base outcomes a later run trusts are the gate's alone to write."""
    attack = Attack(tmp_path, CACHE_PLANT.format(cache=os.environ["XDG_CACHE_HOME"]))
    code, report, _ = attack.judge()
    assert (code, report["verdict"]) == (0, "pass")
    assert attack.found() == {"refused": "OSError"}
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gate" / "base-outcomes"
    assert "planted.json" not in os.listdir(cache)


@pytest.mark.slow
@needs_boundary
def test_without_isolation_a_test_plants_base_outcomes(tmp_path: Path) -> None:
    """The attack above is real: with `--isolation off` the file lands in the cache."""
    attack = Attack(tmp_path, CACHE_PLANT.format(cache=os.environ["XDG_CACHE_HOME"]))
    attack.judge("off")
    assert attack.found() == {"planted": ""}
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gate" / "base-outcomes"
    assert "planted.json" in os.listdir(cache)


def test_a_report_directory_that_holds_a_tools_cache_stays_writable(tmp_path: Path) -> None:
    """`--report work/report.json` with XDG_CACHE_HOME=work/cache: a read-only work/ would
    make uv's install fail (found by bench/run, whose report and caches share a directory)."""
    work = tmp_path / "work"
    report = str(work / "report.json")
    assert protected.report_directory(report, {"XDG_CACHE_HOME": str(work / "cache")}) == []
    assert protected.report_directory(report, {"UV_CACHE_DIR": str(work / "uv")}) == []
    assert protected.report_directory(report, {}) == [os.path.realpath(work)]
