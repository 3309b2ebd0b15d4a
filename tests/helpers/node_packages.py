"""npm packages from the registry, installed once per test session and shared by the tests
that build JavaScript projects (a project's install links them in, instead of downloading)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

VITEST = ("vitest@3",)
JEST = ("jest@29",)


def installed(factory: pytest.TempPathFactory, packages: tuple[str, ...]) -> Path:
    """node_modules holding `packages`, installed once per session."""
    where = factory.getbasetemp() / ("npm-" + "-".join(p.replace("@", "_") for p in packages))
    if not (where / "node_modules").is_dir():
        where.mkdir(exist_ok=True)
        (where / "package.json").write_text('{"name": "holder", "private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                        "--cache", str(where / "cache"), *packages], cwd=where, check=True,
                       stdout=subprocess.DEVNULL)
    return where / "node_modules"
