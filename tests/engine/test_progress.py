"""What a person sees while the gate works, for real: a live line rewritten in place on a
terminal (a pty), plain lines elsewhere and with NO_COLOR or CI, each check's line once, the
pre-push hook the same; and the colours of `gate run`/`gate scan` text."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import Repo
from helpers.terminal import on_a_terminal

from gate.checks import registry
from gate.models import CheckResult
from gate.report import live

BIN = Path(sys.executable).parent
SLOW_CHECK = 'sleep 2.5; grep -q good value.txt && echo "1 passed, 0 failed"\n'
SKIP = "import pytest\n\n\n@pytest.mark.skip\ndef test_one():\n    assert 1\n"


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI")}
    return {**base, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "200", **extra}


def piped(argv: list[str], cwd: Path, environ: Mapping[str, str]) -> tuple[int, str]:
    """Run with stdout and stderr into one pipe, as a CI log has them (and no controlling
    terminal, as a CI job has none)."""
    done = subprocess.run(argv, cwd=cwd, env=dict(environ), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, start_new_session=True)
    return done.returncode, done.stdout


def captured_at_a_terminal(argv: list[str], cwd: Path,
                           environ: Mapping[str, str]) -> tuple[int, str, str]:
    """As the pre-commit framework runs a hook for a person at a terminal: stdout and stderr
    captured into a pipe, the terminal still the process's controlling one. The exit code,
    what the pipe got, what the terminal showed."""
    import fcntl
    import pty
    import termios

    primary, secondary = pty.openpty()

    def control() -> None:
        os.setsid()
        fcntl.ioctl(secondary, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(argv, cwd=cwd, env=dict(environ), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=control, pass_fds=(secondary,))
    os.close(secondary)
    out = proc.communicate()[0].decode()
    shown = []
    os.set_blocking(primary, False)
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown.append(chunk)
    os.close(primary)
    return proc.returncode, out, b"".join(shown).decode().replace("\r\n", "\n")


def shell_change(tmp_path: Path, value: str) -> Repo:
    """A project whose suite is a shell script that takes 2.5 s, so the live line ticks (a
    whole second at "1 s", however loaded the machine)."""
    repo = Repo(tmp_path / "work")
    repo.commit({".gate.toml": 'test = "sh check.sh"\ninstall = "true"\n',
                 "check.sh": SLOW_CHECK, "value.txt": "good\n"})
    repo.branch("change")
    repo.commit({"value.txt": value, "notes.txt": "n\n"})
    return repo


# one after another: the progress names each run (side by side, the default, it says
# "2 runs side by side": the pre-push hook's test below)
GATE_RUN = [str(BIN / "gate"), "run", "--base", "main", "--runs", "2", "--no-parallel"]


CHECKS = registry.ORDER


def check_lines(shown: str) -> list[str]:
    """The lines that say how a check ended, without colour."""
    plain = re.sub(r"\033\[[0-9;]*[mK]", "", shown)
    return [line.rsplit("\r", 1)[-1] for line in plain.splitlines()
            if re.match(r"^ *(ok|FAIL|review|skip|ERROR|TIMEOUT)  [\w-]+:",
                        line.rsplit("\r", 1)[-1])]


@pytest.mark.slow
def test_on_a_terminal_a_live_line_with_the_run_and_the_seconds(tmp_path: Path) -> None:
    repo = shell_change(tmp_path, "good\n")
    code, shown = on_a_terminal(GATE_RUN, repo.path, env())
    assert code == 0
    assert "\r\033[Ksuite: run 1 of 2, 0 s" in shown
    assert "\r\033[Ksuite: run 1 of 2, 1 s" in shown  # the ticker, while the run goes on
    assert "\r\033[Ksuite: run 2 of 2, 3 s" in shown  # the seconds are the check's
    assert "\r\033[Kinstall: `true`, 0 s" in shown
    # Each check's line once, in colour, where the live line was.
    ended = check_lines(shown)
    assert sorted(line.split(":")[0].split()[-1] for line in ended) == sorted(CHECKS)
    assert "\r\033[K\033[32m     ok\033[0m  suite: 2 of 2 runs passed" in shown
    assert shown.endswith("verdict: \033[32mpass\033[0m (" + shown.rsplit("(", 1)[1])


@pytest.mark.slow
def test_a_failing_suite_is_printed_again_once_the_baseline_classified_it(
    tmp_path: Path
) -> None:
    repo = shell_change(tmp_path, "bad\n")
    code, shown = on_a_terminal(GATE_RUN, repo.path, env(XDG_CACHE_HOME=str(tmp_path / "c")))
    assert code == 1
    ended = check_lines(shown)
    suite = [line for line in ended if "suite:" in line]
    assert [line.split("(")[0] for line in suite] == [
        "   FAIL  suite: 0 of 2 runs passed ",
        "   FAIL  suite: 0 of 2 runs passed ",
    ]
    assert "baseline: regression, passes at base" in suite[1]
    assert "baseline" not in suite[0]
    assert len(ended) == len(CHECKS) + 1
    # the live line, cut at the terminal's width
    assert "\r\033[Ksuite: the base's suite, once, after the suite's runs: cac" in shown


@pytest.mark.slow
def test_the_bases_work_has_a_line_beside_the_suites_runs_then_from_the_cache(
        tmp_path: Path) -> None:
    """The base's suite runs beside the install and the suite's runs (the default): a line
    says so, and that its outcomes are kept; the next run against this base says they came
    from the cache."""
    repo = shell_change(tmp_path, "good\n")
    argv = [str(BIN / "gate"), "run", "--base", "main", "--runs", "2"]
    environ = env(XDG_CACHE_HOME=str(tmp_path / "cache"))
    code, shown = piped(argv, repo.path, environ)
    assert code == 0
    beside = ("   ....  install: the base's suite, once, beside the install and the suite's runs: "
              "cached for the next PR against this base\n")
    assert beside in shown
    assert shown.index(beside) < shown.index("   ....  install: making a fresh environment\n")
    code, shown = piped(argv, repo.path, environ)
    assert code == 0
    assert "   ....  install: the base's outcomes: from the cache\n" in shown
    assert "the base's suite" not in shown


@pytest.mark.slow
@pytest.mark.parametrize("setting", [{"NO_COLOR": "1"}, {"CI": "true"}])
def test_no_color_or_ci_gives_plain_lines(tmp_path: Path, setting: dict[str, str]) -> None:
    repo = shell_change(tmp_path, "good\n")
    code, shown = on_a_terminal(GATE_RUN, repo.path, env(**setting))
    assert code == 0
    assert "\r" not in shown
    assert "\n   ....  suite: run 1 of 2\n" in shown
    assert "\n   ....  suite: run 2 of 2\n" in shown
    assert ("\033[" in shown) == ("CI" in setting)  # CI on a terminal keeps the colours
    assert sorted(line.split(":")[0].split()[-1] for line in check_lines(shown)) == sorted(
        CHECKS)


@pytest.mark.slow
def test_in_a_pipe_plain_lines_and_each_check_once(tmp_path: Path) -> None:
    repo = shell_change(tmp_path, "good\n")
    code, shown = piped(GATE_RUN, repo.path, env())
    assert code == 0
    assert "\r" not in shown and "\033[" not in shown
    assert "   ....  install: `true`\n" in shown
    assert "   ....  suite: run 2 of 2\n" in shown
    assert sorted(line.split(":")[0].split()[-1] for line in check_lines(shown)) == sorted(
        CHECKS)


@pytest.mark.slow
def test_the_report_to_a_file_keeps_every_check_line(tmp_path: Path) -> None:
    """The progress went to the terminal, the report elsewhere: the report is whole."""
    repo = shell_change(tmp_path, "good\n")
    out = tmp_path / "out.txt"
    code, _ = on_a_terminal(["sh", "-c", f'"$0" "$@" > {out}', *GATE_RUN], repo.path,
                            env())
    assert code == 0
    assert len(check_lines(out.read_text())) == len(CHECKS)
    assert "\033[" not in out.read_text()


@pytest.mark.slow
def test_the_pre_push_hook_shows_the_same_progress(tmp_path: Path) -> None:
    repo = shell_change(tmp_path, "good\n")
    environ = env(PRE_COMMIT_FROM_REF="main", PRE_COMMIT_TO_REF="change")
    code, shown = on_a_terminal([str(BIN / "gate"), "hook", "pre-push"], repo.path, environ)
    assert code == 0
    assert "\r\033[Ksuite: 3 runs side by side, 0 s" in shown
    assert "\033[32m     ok\033[0m  suite: 3 of 3 runs passed" in shown
    # Under the pre-commit framework, whose captured output is shown after the hook, none.
    code, shown = piped([str(BIN / "gate"), "hook", "pre-push"], repo.path,
                        {**environ, "PRE_COMMIT": "1"})
    assert (code, shown) == (0, "")
    # For a person at a terminal, the progress goes to the terminal itself, which the
    # framework does not hold back: not a minute of silence.
    code, out, shown = captured_at_a_terminal([str(BIN / "gate"), "hook", "pre-push"],
                                              repo.path, {**environ, "PRE_COMMIT": "1"})
    assert code == 0
    assert "\r\033[Ksuite: 3 runs side by side, 0 s" in shown
    assert "\033[32m     ok\033[0m  suite: 3 of 3 runs passed" in shown
    assert out == ""  # a pass: the framework's output holds nothing, as before


def test_scan_text_is_coloured_on_a_terminal_and_never_with_no_color(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "work")
    repo.commit({"tests/test_one.py": "def test_one():\n    assert 1\n"})
    repo.branch("change")
    repo.commit({"tests/test_one.py": SKIP})
    argv = [str(BIN / "gate"), "scan", "--base", "main"]
    code, shown = on_a_terminal(argv, repo.path, env())
    assert code == 3
    markers = "skip-markers: 1 new skip, xfail, focus or todo marker(s)"
    assert f"\033[33m review\033[0m  {markers}" in shown
    assert "\033[1mtests/test_one.py:4\033[0m: skip-markers: new skip marker" in shown
    assert "verdict: \033[33mneeds-review\033[0m" in shown
    code, shown = on_a_terminal(argv, repo.path, env(NO_COLOR="1"))
    assert code == 3
    assert "\033[" not in shown
    assert f" review  {markers}" in shown


def test_the_live_line_ticks_shares_the_line_fits_the_width_and_stays_one_line(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    now = [100.0]
    stream = io.StringIO()
    progress = live.LiveProgress(stream, colour=False, interval=0.01, clock=lambda: now[0])
    try:
        progress.started("install", "Installs from scratch")
        progress.step("install", "pip install\n  -e '.[test]'")
        assert stream.getvalue().endswith("\r\033[Kinstall: pip install -e '.[test]', 0 s")
        progress.started("escapes", "No new escapes")
        assert stream.getvalue().endswith(
            "\r\033[Kinstall: pip install -e '.[test]', 0 s | escapes: No new e…")
        progress.finished(CheckResult("escapes", "t", "passed", False, "no new escapes"))
        assert stream.getvalue().endswith(
            "\r\033[K     ok  escapes: no new escapes\n"
            "\r\033[Kinstall: pip install -e '.[test]', 0 s")
        now[0] = 141.0
        deadline = time.monotonic() + 5
        while not stream.getvalue().endswith(", 41 s") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert stream.getvalue().endswith("\r\033[Kinstall: pip install -e '.[test]', 41 s")
    finally:
        progress.close()
    assert stream.getvalue().endswith("\r\033[K")  # interrupted: the live line is cleared
    assert progress.shown == {"     ok  escapes: no new escapes"}
