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
