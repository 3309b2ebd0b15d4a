"""Install and test commands detected from a checkout's files."""
from __future__ import annotations

from pathlib import Path

import pytest

from gate.execution import installer
from gate.outcomes import detect

PIP = installer.pip_install()


def write(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (root / name).write_text(text)
    return str(root)


@pytest.mark.parametrize(("files", "install", "test"), [
    ({"pyproject.toml": '[project]\nname="x"\n[project.optional-dependencies]\ntest=["pytest"]\n'},
     f"{PIP} -e '.[test]'", "python -m pytest"),
    ({"pyproject.toml": '[project]\nname="x"\n[dependency-groups]\nlint=["ruff"]\n'
                        'test=["pytest>=8", {include-group = "lint"}]\n'},
     f"{PIP} -e . 'pytest>=8' ruff", "python -m pytest"),
    ({"setup.py": "", "requirements-dev.txt": "", "requirements.txt": ""},
     f"{PIP} -e . -r requirements-dev.txt -r requirements.txt pytest", "python -m pytest"),
    ({"requirements.txt": "requests\n"}, f"{PIP} -r requirements.txt pytest",
     "python -m pytest"),
    ({"poetry.lock": "", "pyproject.toml": ""}, "poetry install --no-interaction",
     "python -m pytest"),
    ({"package.json": '{"scripts": {"test": "jest"}}', "package-lock.json": "{}"},
     "npm ci", "npm test"),
    ({"package.json": '{"scripts": {}}', "pnpm-lock.yaml": ""},
     "pnpm install --frozen-lockfile", None),
    ({"package.json": "{}", "yarn.lock": ""}, "yarn install --frozen-lockfile", None),
    ({"package.json": "{}", "bun.lockb": ""}, "bun install --frozen-lockfile", None),
    ({"package.json": "{}"}, "npm install", None),
    ({"Cargo.toml": "[package]\n"}, None, "cargo test"),
    ({"go.mod": "module x\n"}, None, "go test ./..."),
    ({"README.md": "hi\n"}, None, None),
])
def test_detected_commands(
    tmp_path: Path, files: dict[str, str], install: str | None, test: str | None
) -> None:
    root = write(tmp_path, files)
    assert detect.install_command(root) == install
    assert detect.test_command(root) == test


PROJECT = '[project]\nname="x"\n'


@pytest.mark.parametrize(("files", "install"), [
    # Seen: a group named `tests` was ignored (only `test` was known): the first honest
    # change failed for a missing test dependency.
    ({"pyproject.toml": PROJECT + '[dependency-groups]\ntests=["pytest", "dateutil"]\n'},
     f"{PIP} -e . pytest dateutil"),
    ({"pyproject.toml": PROJECT + '[project.optional-dependencies]\ntesting=["pytest"]\n'},
     f"{PIP} -e '.[testing]'"),
    ({"pyproject.toml": PROJECT + '[dependency-groups]\ndev=["pytest"]\ndocs=["sphinx"]\n'},
     f"{PIP} -e . pytest"),
    # the CI says which: every name installed beside the tests' one
    ({"pyproject.toml": PROJECT + '[project.optional-dependencies]\ntests=["pytest"]\n'
                        'yaml=["pyyaml"]\ndocs=["sphinx"]\n',
      ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n"
                                  "      - run: pip install -e '.[tests,yaml]'\n"
                                  "      - run: pip install -e .[docs]\n"},
     f"{PIP} -e '.[tests,yaml]'"),
    ({"pyproject.toml": PROJECT + '[project.optional-dependencies]\nfull=["pyyaml"]\n'
                        'unit-test=["pytest"]\n',
      "tox.ini": "[testenv]\nextras =\n    unit-test\n    full\ncommands = pytest\n"},
     f"{PIP} -e '.[unit-test,full]'"),
    ({"pyproject.toml": PROJECT + '[dependency-groups]\ncheck=["pytest"]\n',
      "noxfile.py": 'def tests(session):\n    session.install("--group", "check")\n'},
     f"{PIP} -e . pytest"),  # "check" is not a test's name: nothing said, nothing known
])
def test_the_test_dependencies_are_found_under_any_name(
        tmp_path: Path, files: dict[str, str], install: str) -> None:
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    root = write(tmp_path, files)
    assert detect.install_command(root) == install


def test_uv_sync_gets_the_tests_group_where_it_is_not_a_default_one(tmp_path: Path) -> None:
    uv = installer.find_uv()
    if uv is None:
        # gate: allow skip-markers -- uv is in the test extra; only a bare machine lacks it
        pytest.skip("uv is not installed")
    root = write(tmp_path, {"uv.lock": "", "pyproject.toml": PROJECT + (
        '[dependency-groups]\ntests=["pytest"]\ndev=["ruff"]\n')})
    assert detect.install_command(root) == (
        f'UV_PROJECT_ENVIRONMENT="$VIRTUAL_ENV" {uv} sync --locked --group tests')


def test_the_install_says_which_installer_and_what_decides_the_versions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: a project failed with pip and passed with `uv sync --locked`: pip does not read
    uv.lock. Where the installers may differ, the install check's summary says which one ran
    and why."""
    locked = tmp_path / "locked"
    locked.mkdir()
    write(locked, {"pyproject.toml": PROJECT, "uv.lock": ""})
    monkeypatch.setenv("GATE_NO_UV", "1")
    assert detect.install_reason(str(locked)) == (
        "pip: uv is not found (or GATE_NO_UV is set), so uv.lock is not read and the versions "
        "are the newest the project allows; install uv for the locked ones")
    pinned = tmp_path / "pinned"
    pinned.mkdir()
    write(pinned, {"requirements.txt": "# pins\nrequests==2.31.0\n-e .\n"})
    assert detect.install_reason(str(pinned)) == (
        "pip (uv not found): the pins of the requirements files decide the versions")
    loose = tmp_path / "loose"
    loose.mkdir()
    write(loose, {"requirements.txt": "requests>=2\n"})
    assert detect.install_reason(str(loose)) == (
        "pip (uv not found): no lockfile, so the newest versions the project allows")
    monkeypatch.delenv("GATE_NO_UV")
    if installer.find_uv() is not None:
        assert detect.install_reason(str(locked)) == "uv: uv.lock decides the versions"
    node = tmp_path / "node"
    node.mkdir()
    assert detect.install_reason(write(node, {"package.json": "{}"})) == ""


def test_pytest_gets_as_testpaths_the_directories_ci_and_tox_name(tmp_path: Path) -> None:
    """markdown-it-py: CI and tox run `pytest tests/`; from the root pytest would also import
    benchmarking/conftest.py, whose plugin the tests do not install."""
    for directory in ("tests", "benchmarking", "docs", ".github/workflows"):
        (tmp_path / directory).mkdir(parents=True)
    root = write(tmp_path, {
        "pyproject.toml": '[project]\nname="x"\n',
        "tox.ini": "[testenv]\ncommands = pytest {posargs:tests/}\n\n[testenv:bench]\n"
                   "commands = pytest benchmarking/bench_core.py {posargs}\n",
        ".github/workflows/tests.yml": "jobs:\n  t:\n    steps:\n    - run: |\n"
                                       "        pytest tests/ -k docs --cov=x\n"
                                       "    - run: cd docs; make html\n"})
    assert detect.test_command(root) == "python -m pytest -o testpaths=tests"


def test_the_projects_testpaths_decide_over_what_ci_names(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "src").mkdir()
    root = write(tmp_path, {
        "pyproject.toml": '[project]\nname="x"\n[tool.pytest.ini_options]\n'
                          'testpaths = ["tests"]\n',
        "tox.ini": "[testenv]\ncommands = pytest src tests\n"})
    assert detect.test_command(root) == "python -m pytest"


def test_no_directory_named_is_the_plain_command(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    root = write(tmp_path, {"pyproject.toml": '[project]\nname="x"\n',
                            "tox.ini": "[testenv]\ncommands = pytest -k tests ../other {posargs}\n"
                                       "    pytest /abs/tests missing/\n"})
    assert detect.test_command(root) == "python -m pytest"
