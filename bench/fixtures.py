"""Fixture projects for the benchmarks, built as real git repositories with a base and a head."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "benchpkg"
version = "0.1.0"
dependencies = [{deps}]

[project.optional-dependencies]
test = ["pytest"]

[tool.setuptools]
packages = ["benchpkg"]
"""


def git(root: Path, *args: str) -> str:
    import os

    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, text=True,
                          capture_output=True).stdout


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def commit(root: Path, files: dict[str, str], message: str) -> str:
    write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def test_file(index: int, seconds: float, busy: bool = False) -> str:
    wait = (f"    end = time.process_time() + {seconds!r}\n"
            "    while time.process_time() < end:\n        pass\n" if busy
            else f"    time.sleep({seconds!r})\n")
    return (f"import time\n\nfrom benchpkg import add\n\n\n"
            f"def test_add_{index}():\n{wait}"
            f"    assert add({index}, 1) == {index + 1}\n")


def python_project(root: Path, *, files: int, suite_seconds: float,
                   deps: tuple[str, ...] = (), busy: bool = False) -> tuple[str, str]:
    """A package with `files` test files whose suite sleeps (or, `busy`, computes for)
    `suite_seconds` in all; the head changes one test file. Returns (base, head) SHAs."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    per_test = suite_seconds / files
    base = {
        "pyproject.toml": PYPROJECT.format(deps=", ".join(f'"{d}"' for d in deps)),
        "benchpkg/__init__.py": "def add(a, b):\n    return a + b\n",
        **{f"tests/test_{i:03d}.py": test_file(i, per_test, busy) for i in range(files)},
    }
    base_sha = commit(root, base, "base")
    git(root, "checkout", "-q", "-b", "change")
    changed = test_file(0, per_test, busy) + "\n\ndef test_extra():\n    assert add(0, 0) == 0\n"
    head_sha = commit(root, {"tests/test_000.py": changed}, "head")
    return base_sha, head_sha


def wheelhouse(target: Path, packages: tuple[str, ...]) -> Path:
    """Wheels of `packages` and their dependencies, so that installs do not touch the network."""
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                    "--disable-pip-version-check", "-d", str(target), *packages], check=True,
                   stderr=subprocess.DEVNULL)
    return target
