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
