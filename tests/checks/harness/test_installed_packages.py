"""node_modules after a real npm install, held against package-lock.json."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gate.checks.harness import installed_packages

pytestmark = pytest.mark.slow  # npm and the registry


def npm_project(root: Path, cache: Path, scripts: dict[str, str]) -> Path:
    """A package pinning is-number 7.0.0 in its lockfile, installed by npm with `scripts`."""
    root.mkdir()
    package = {"name": "calc", "version": "1.0.0", "private": True,
               "dependencies": {"is-number": "7.0.0"}}
    (root / "package.json").write_text(json.dumps(package))
    npm = ["npm", "--cache", str(cache), "--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run([*npm, "install", "--package-lock-only"], cwd=root, check=True)
    (root / "package.json").write_text(json.dumps({**package, "scripts": scripts}))
    subprocess.run([*npm, "ci"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    return root


def test_a_postinstall_that_installs_another_version_is_found(tmp_path: Path) -> None:
    root = npm_project(tmp_path / "p", tmp_path / "cache", {
        "postinstall": "npm install --no-save --no-audit --no-fund is-number@6.0.0"})
    [finding] = installed_packages.changed(str(root))
    assert (finding.path, finding.rule) == ("package-lock.json", "install-changed-dependency")
    assert "is-number 7.0.0 -> 6.0.0" in finding.message


def test_an_install_as_the_lock_pins_is_clean(tmp_path: Path) -> None:
    root = npm_project(tmp_path / "p", tmp_path / "cache", {"postinstall": "node -e 1"})
    assert installed_packages.changed(str(root)) == []
