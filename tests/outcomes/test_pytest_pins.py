"""pytest finds its configuration in the checkout only (issue 22), even without the boundary.

pytest walks up from its arguments to the first configuration file (a pyproject.toml without
a pytest table does not stop it) and loads conftest.py files up to that file's directory. A
checkout with no configuration of its own would read a pytest.ini and a conftest.py planted
above it; the gate's pins (`pytest.config_pins`, in PYTEST_ADDOPTS) stop that, and change
nothing for honest projects: one without configuration collects the same tests, one with its
configuration in a subdirectory is not pinned. Real pytest, in real directories."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.gitrepo import Repo

from gate.outcomes import junit
from gate.outcomes.runners import pytest as pytest_runner

# Turns every failure into a pass: loaded only if pytest reads the directory it is in.
FORGE = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
         "def pytest_runtest_makereport(item, call):\n"
         "    outcome = yield\n"
         "    outcome.get_result().outcome = 'passed'\n")
BROKEN = {"calc.py": "def add(a, b):\n    return a - b\n",
          "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                                "    assert add(2, 3) == 5\n"}


def checkout(where: Path, files: dict[str, str]) -> Path:
    repo = Repo(where)
    repo.commit(files)
    return where


def pytest_in(cwd: Path, scratch: Path | None, *args: str) -> tuple[int, list[str], str]:
    """pytest run in `cwd`, with the gate's PYTEST_ADDOPTS for a checkout at `cwd`'s top
    (`scratch`: the gate's scratch directory; None: plain pytest); the tests the report
    names, passed ones only."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(cwd)
    report = cwd.parent / "report.xml"
    if scratch is not None:
        top = Path(subprocess.run(["git", "-C", str(cwd), "rev-parse", "--show-toplevel"],
                                  capture_output=True, text=True, check=True).stdout.strip())
        pins = pytest_runner.config_pins(str(top), str(scratch))
        env["PYTEST_ADDOPTS"] = pytest_runner.env(str(report), pins=pins)["PYTEST_ADDOPTS"]
    else:
        env["PYTEST_ADDOPTS"] = f"-p no:cacheprovider --junitxml={report}"
    done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)
    cases = junit.parse(str(report)) or []
    return done.returncode, sorted(c.name for c in cases if c.outcome == "passed"), done.stdout


@pytest.fixture
def planted_above(tmp_path: Path) -> Path:
    """A pytest.ini and a conftest.py that forges passes, in the directory above a checkout
    of a broken change that has no pytest configuration of its own."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(FORGE)
    (tmp_path / "scratch").mkdir()
    return checkout(tmp_path / "checkout", {**BROKEN, "pyproject.toml": "[project]\nname = 'c'\n"})


def test_plain_pytest_reads_the_config_planted_above_the_checkout(planted_above: Path) -> None:
    """The attack is real: pytest takes the pytest.ini above (the pyproject.toml has no
    pytest table) and loads the conftest.py beside it; the broken add passes."""
    code, passed, out = pytest_in(planted_above, None)
    assert (code, len(passed)) == (0, 1), out


def test_with_the_gates_pins_nothing_above_the_checkout_is_read(planted_above: Path) -> None:
    code, passed, out = pytest_in(planted_above, planted_above.parent / "scratch")
    assert (code, passed) == (1, []), out
    assert f"rootdir: {planted_above}" in out


CONFTEST_FIXTURE = "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"
HONEST = {"calc.py": "def add(a, b):\n    return a + b\n",
          "conftest.py": CONFTEST_FIXTURE,
          "tests/test_calc.py": "from calc import add\n\n\ndef test_add(two):\n"
                                "    assert add(two, 3) == 5\n",
          "tests/unit/test_more.py": "def test_more(two):\n    assert two == 2\n",
          "tests/unit/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef three():\n"
                                    "    return 3\n"}


@pytest.mark.parametrize("args", [(), ("tests/unit",)])
def test_a_project_without_configuration_collects_the_same_tests_pinned(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    """Honest twin: no configuration, a conftest.py at the top and one below: the same tests
    run and pass with the pins as without (the report names them from the checkout)."""
    top = checkout(tmp_path / "checkout", HONEST)
    (tmp_path / "scratch").mkdir()
    plain = pytest_in(top, None, *args)
    pinned = pytest_in(top, tmp_path / "scratch", *args)
    assert plain[0] == pinned[0] == 0, pinned[2]
    assert len(plain[1]) == len(pinned[1]) == (1 if args == ("tests/unit",) else 2)


def test_a_configuration_in_a_subdirectory_is_left_to_pytest(tmp_path: Path) -> None:
    """Honest twin: the project's pytest.ini is in `python/`, where its command runs pytest;
    the gate pins nothing, and that file stays pytest's configuration and rootdir."""
    top = checkout(tmp_path / "checkout", {
        "python/pytest.ini": "[pytest]\ntestpaths = suite\n",
        "python/suite/test_x.py": "def test_x():\n    assert True\n",
        "python/other/test_not_collected.py": "def test_no():\n    assert False\n"})
    (tmp_path / "scratch").mkdir()
    assert pytest_runner.config_pins(str(top), str(tmp_path / "scratch")) == ()
    code, passed, out = pytest_in(top / "python", tmp_path / "scratch")
    assert (code, len(passed)) == (0, 1), out
    assert f"rootdir: {top / 'python'}" in out


@pytest.mark.parametrize("name,text", [
    ("pytest.ini", ""), ("pyproject.toml", "[tool.pytest.ini_options]\naddopts = '-q'\n"),
    ("tox.ini", "[pytest]\n"), ("setup.cfg", "[tool:pytest]\n")])
def test_a_configuration_at_the_top_is_not_pinned(tmp_path: Path, name: str, text: str) -> None:
    top = checkout(tmp_path / "checkout", {**HONEST, name: text})
    assert pytest_runner.config_pins(str(top), str(tmp_path)) == ()


def test_the_pins_name_an_empty_configuration_in_the_scratch_directory(tmp_path: Path) -> None:
    """Where the pyproject.toml has no pytest table: pytest gets the gate's empty file, in
    the scratch directory (read-only to the judged commands), and the checkout as rootdir."""
    top = checkout(tmp_path / "checkout", {"pyproject.toml": "[project]\nname = 'x'\n"})
    pins = pytest_runner.config_pins(str(top), str(tmp_path))
    assert pins == ("-c", str(tmp_path / pytest_runner.EMPTY_CONFIG), "--rootdir", str(top),
                    "--confcutdir", str(top))
    assert (tmp_path / pytest_runner.EMPTY_CONFIG).read_text() == "[pytest]\n"


def test_the_empty_configuration_is_never_written_through_a_link(tmp_path: Path) -> None:
    """The install runs before the first test run, and may write the scratch directory: a
    link it left where the gate's empty configuration goes is replaced, never written
    through (the gate writes as the user, outside the boundary); a FIFO in the checkout's
    place of a pyproject.toml is not read."""
    top = checkout(tmp_path / "checkout", {"calc.py": "x = 1\n"})
    os.mkfifo(top / "pyproject.toml")
    victim = tmp_path / "victim"
    victim.write_text("the user's\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / pytest_runner.EMPTY_CONFIG).symlink_to(victim)
    pins = pytest_runner.config_pins(str(top), str(scratch))
    assert pins[:2] == ("-c", str(scratch / pytest_runner.EMPTY_CONFIG))
    assert victim.read_text() == "the user's\n"
    assert not (scratch / pytest_runner.EMPTY_CONFIG).is_symlink()
    assert (scratch / pytest_runner.EMPTY_CONFIG).read_text() == "[pytest]\n"
