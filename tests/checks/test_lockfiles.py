from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks import lockfiles
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff


def _run(tmp_path: Path, base: Mapping[str, str | None],
         head: Mapping[str, str | None]) -> CheckResult:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return lockfiles.run(ctx)


def _found(result: CheckResult) -> list[tuple[str, int, str, str]]:
    return [(f.path, f.line, f.rule, f.message) for f in result.findings]


def _npm_lock(packages: Mapping[str, str], version: int = 3) -> str:
    entries: dict[str, object] = {"": {"name": "app", "version": "0.1.0"}}
    for key, ver in packages.items():
        entries[key] = {"version": ver, "integrity": "sha512-x"}
    return json.dumps({"name": "app", "lockfileVersion": version, "packages": entries}, indent=2)


def test_package_lock_names_added_removed_and_changed(tmp_path: Path) -> None:
    base = _npm_lock({"node_modules/foo": "1.0.0", "node_modules/bar": "1.0.0"})
    head = _npm_lock({"node_modules/bar": "2.0.0", "node_modules/left-pad": "1.3.0"})
    result = _run(tmp_path, {"package-lock.json": base}, {"package-lock.json": head})
    assert _found(result) == [(
        "package-lock.json", 1, "lockfile",
        "package-lock.json changed: added left-pad 1.3.0; removed foo 1.0.0; "
        "changed bar 1.0.0 -> 2.0.0",
    )]
    assert result.findings[0].severity == "warning"
    assert result.summary == "1 lockfile(s) changed"


def test_package_lock_nested_and_scoped_packages(tmp_path: Path) -> None:
    base = _npm_lock({"node_modules/@types/node": "20.0.0"})
    head = _npm_lock({"node_modules/@types/node": "20.0.0",
                      "node_modules/a/node_modules/@types/node": "18.0.0"})
    result = _run(tmp_path, {"web/package-lock.json": base}, {"web/package-lock.json": head})
    assert _found(result) == [("web/package-lock.json", 1, "lockfile",
                               "web/package-lock.json changed: "
                               "changed @types/node 20.0.0 -> 18.0.0, 20.0.0")]


def test_package_lock_v1_dependencies(tmp_path: Path) -> None:
    def lock(version: str) -> str:
        deps = {"express": {"version": "4.0.0", "dependencies": {"qs": {"version": version}}}}
        return json.dumps({"lockfileVersion": 1, "dependencies": deps})
    result = _run(tmp_path, {"npm-shrinkwrap.json": lock("6.0.0")},
                  {"npm-shrinkwrap.json": lock("6.1.0")})
    assert _found(result) == [("npm-shrinkwrap.json", 1, "lockfile",
                               "npm-shrinkwrap.json changed: changed qs 6.0.0 -> 6.1.0")]


def _toml_lock(packages: Mapping[str, str]) -> str:
    return "version = 1\n\n" + "".join(
        f'[[package]]\nname = "{name}"\nversion = "{ver}"\nsource = {{ registry = "x" }}\n\n'
        for name, ver in packages.items())


@pytest.mark.parametrize("path", ["uv.lock", "poetry.lock", "Cargo.lock", "pdm.lock",
                                  "crates/app/Cargo.lock"])
def test_toml_lockfiles(tmp_path: Path, path: str) -> None:
    base = _toml_lock({"requests": "2.31.0", "idna": "3.6"})
    head = _toml_lock({"requests": "2.32.0", "urllib3": "2.2.0"})
    result = _run(tmp_path, {path: base}, {path: head})
    assert _found(result) == [(path, 1, "lockfile", f"{path} changed: added urllib3 2.2.0; "
                               "removed idna 3.6; changed requests 2.31.0 -> 2.32.0")]


PNPM_BASE = """\
lockfileVersion: '9.0'
packages:
  left-pad@1.3.0:
    resolution: {integrity: sha512-x}
  '@scope/ui@2.0.0(react@18.2.0)':
    resolution: {integrity: sha512-y}
"""


@pytest.mark.parametrize(("path", "base", "head", "message"), [
    ("pnpm-lock.yaml", PNPM_BASE, PNPM_BASE.replace("ui@2.0.0", "ui@2.1.0"),
     "pnpm-lock.yaml changed: changed @scope/ui 2.0.0 -> 2.1.0"),
    ("pnpm-lock.yaml", "lockfileVersion: 5.4\npackages:\n  /foo/1.0.0:\n    dev: false\n",
     "lockfileVersion: 5.4\npackages:\n  /foo/1.1.0:\n    dev: false\n",
     "pnpm-lock.yaml changed: changed foo 1.0.0 -> 1.1.0"),
    ("yarn.lock", '"foo@^1.0.0", foo@^1.1.0:\n  version "1.2.0"\n  resolved "x"\n',
     '"foo@^1.0.0", foo@^1.1.0:\n  version "1.3.0"\n  resolved "x"\n\n'
     '"@a/b@^2":\n  version "2.0.1"\n',
     "yarn.lock changed: added @a/b 2.0.1; changed foo 1.2.0 -> 1.3.0"),
    ("yarn.lock", '__metadata:\n  version: 6\n\n"foo@npm:^1.0.0":\n  version: 1.2.0\n',
     '__metadata:\n  version: 6\n\n"foo@npm:^1.0.0":\n  version: 1.4.0\n',
     "yarn.lock changed: changed foo 1.2.0 -> 1.4.0"),
    ("go.sum", "golang.org/x/mod v0.14.0 h1:a=\ngolang.org/x/mod v0.14.0/go.mod h1:b=\n",
     "golang.org/x/mod v0.15.0 h1:c=\ngolang.org/x/mod v0.15.0/go.mod h1:d=\n",
     "go.sum changed: changed golang.org/x/mod v0.14.0 -> v0.15.0"),
    ("Gemfile.lock", "GEM\n  specs:\n    rake (13.0.6)\n", "GEM\n  specs:\n    rake (13.1.0)\n",
     "Gemfile.lock changed: changed rake 13.0.6 -> 13.1.0"),
    ("composer.lock", '{"packages": [{"name": "a/b", "version": "1.0"}]}',
     '{"packages": [], "packages-dev": [{"name": "c/d", "version": "2.0"}]}',
     "composer.lock changed: added c/d 2.0; removed a/b 1.0"),
    ("Pipfile.lock", '{"default": {"six": {"version": "==1.16.0"}}, "develop": {}}',
     '{"default": {"six": {"version": "==1.17.0"}}, "develop": {}}',
     "Pipfile.lock changed: changed six 1.16.0 -> 1.17.0"),
    ("bun.lock", '{"lockfileVersion": 0,}\n', '{"lockfileVersion": 1,}\n', "bun.lock changed"),
])
def test_other_lockfiles(tmp_path: Path, path: str, base: str, head: str, message: str) -> None:
    assert _found(_run(tmp_path, {path: base}, {path: head})) == [(path, 1, "lockfile", message)]


def test_lockfile_added_and_deleted(tmp_path: Path) -> None:
    result = _run(tmp_path, {"uv.lock": _toml_lock({"idna": "3.6"})},
                  {"uv.lock": None, "app/poetry.lock": _toml_lock({"rich": "13.0.0"})})
    assert _found(result) == [
        ("app/poetry.lock", 1, "lockfile", "app/poetry.lock added: added rich 13.0.0"),
        ("uv.lock", 1, "lockfile", "uv.lock deleted: removed idna 3.6"),
    ]


def test_unparsable_lockfile_just_changed(tmp_path: Path) -> None:
    result = _run(tmp_path, {"package-lock.json": _npm_lock({"node_modules/a": "1.0.0"})},
                  {"package-lock.json": "<<<<<<< HEAD\n"})
    assert _found(result) == [("package-lock.json", 1, "lockfile", "package-lock.json changed")]


def test_same_packages_says_so(tmp_path: Path) -> None:
    base = _npm_lock({"node_modules/a": "1.0.0"})
    result = _run(tmp_path, {"package-lock.json": base},
                  {"package-lock.json": base.replace("sha512-x", "sha512-z")})
    assert _found(result) == [("package-lock.json", 1, "lockfile", "package-lock.json changed: "
                               "no package added, removed or changed version")]


def test_message_is_bounded(tmp_path: Path) -> None:
    head = _toml_lock({f"pkg{i:02d}": "1.0" for i in range(25)})
    (finding,) = _run(tmp_path, {"uv.lock": _toml_lock({})}, {"uv.lock": head}).findings
    named = [f"added pkg{i:02d} 1.0" for i in range(20)]
    assert finding.message == f"uv.lock changed: {'; '.join(named)}; and 5 more"


@pytest.mark.parametrize("path", ["package.json", "my-yarn.lock", "Cargo.toml", "docs/uv.lock.md"])
def test_non_lockfiles_raise_nothing(tmp_path: Path, path: str) -> None:
    result = _run(tmp_path, {path: "a\n"}, {path: "b\n"})
    assert _found(result) == []
    assert result.status == "passed"


PNPM_WORKSPACE = """\
lockfileVersion: '9.0'
importers:
  .:
    devDependencies:
      vitest:
        specifier: ^3.0.0
        version: 3.0.0
  packages/client:
    dependencies:
      '@trpc/server':
        specifier: workspace:*
        version: link:../server
packages:
  vitest@3.0.0:
    resolution: {integrity: sha512-AAAA}
snapshots:
  vitest@3.0.0: {}
"""


def test_a_pnpm_lockfile_changed_in_its_workspace_links_only_is_a_notice(
        tmp_path: Path) -> None:
    """trpc: 12 of 80 commits changed pnpm-lock.yaml only in its importers (the workspace's
    own packages and their links): no package installed from elsewhere changed."""
    head = PNPM_WORKSPACE.replace("      '@trpc/server':\n", "      '@trpc/client':\n").replace(
        "link:../server", "link:../client")
    def severities(result: CheckResult) -> list[tuple[str, str]]:
        return [(f.path, f.severity) for f in result.findings]
    assert severities(_run(tmp_path, {"pnpm-lock.yaml": PNPM_WORKSPACE},
                           {"pnpm-lock.yaml": head})) == [("pnpm-lock.yaml", "notice")]
    tampered = PNPM_WORKSPACE.replace("sha512-AAAA", "sha512-BBBB")  # same version, other code
    assert severities(_run(tmp_path / "2", {"pnpm-lock.yaml": PNPM_WORKSPACE},
                           {"pnpm-lock.yaml": tampered})) == [("pnpm-lock.yaml", "warning")]


def test_a_lockfile_the_change_stops_ignoring_and_adds_is_a_notice(tmp_path: Path) -> None:
    """The project starts keeping its lockfile: the base's .gitignore named it, the change
    takes that line out and adds the file. One the base did not ignore stays a warning."""
    lock = _toml_lock({"attrs": "24.2.0"})
    base = {".gitignore": "uv.lock\n__pycache__/\n", "pyproject.toml": "[project]\nname='a'\n"}
    result = _run(tmp_path, base, {".gitignore": "__pycache__/\n", "uv.lock": lock})
    assert [(f.path, f.severity) for f in result.findings] == [("uv.lock", "notice")]
    assert "takes it out of the base's .gitignore (.gitignore:1)" in result.findings[0].message
    kept = _run(tmp_path / "2", {**base, ".gitignore": "__pycache__/\n"}, {"uv.lock": lock})
    assert [(f.path, f.severity) for f in kept.findings] == [("uv.lock", "warning")]
