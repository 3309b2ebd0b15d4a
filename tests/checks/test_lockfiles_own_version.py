"""lockfiles: the project's own release bump in its lockfile is not a finding; any other change
beside it, or a change of where a package comes from at the same version, still is."""
from __future__ import annotations

import json
from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks import lockfiles


def _npm(own: str, foo: str = "1.0.0", resolved: str = "https://registry.npmjs.org/foo") -> str:
    return json.dumps({"name": "app", "version": own, "lockfileVersion": 3, "packages": {
        "": {"name": "app", "version": own, "dependencies": {"foo": "^1"}},
        "packages/core": {"name": "@app/core", "version": own},
        "node_modules/foo": {"version": foo, "resolved": resolved, "integrity": "sha512-x"},
    }}, indent=2) + "\n"


def test_the_projects_own_version_bump_is_not_a_finding(tmp_path: Path) -> None:
    assert found(run_check(lockfiles.run, tmp_path, {"package-lock.json": _npm("1.2.0")},
                           {"package-lock.json": _npm("1.3.0")})) == []


def test_a_dependency_changed_beside_the_bump_is_still_said(tmp_path: Path) -> None:
    result = run_check(lockfiles.run, tmp_path, {"package-lock.json": _npm("1.2.0")},
                       {"package-lock.json": _npm("1.3.0", foo="1.0.1")})
    assert found(result) == [("package-lock.json", 1, "lockfile")]
    assert "changed foo 1.0.0 -> 1.0.1" in result.findings[0].message


def test_a_package_from_elsewhere_at_the_same_version_is_still_said(tmp_path: Path) -> None:
    result = run_check(lockfiles.run, tmp_path, {"package-lock.json": _npm("1.2.0")},
                       {"package-lock.json": _npm("1.3.0", resolved="https://evil.example/foo")})
    assert found(result) == [("package-lock.json", 1, "lockfile")]


_CARGO = """\
version = 3

[[package]]
name = "itoa"
version = "1.0.11"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "49f1f14873335454500d59611f1cf4a4b0f786f9ac11f4312a78e4cf2566695b"

[[package]]
name = "mycrate"
version = "{own}"
dependencies = [
 "itoa",
]
"""
_UV = """\
version = 1

[[package]]
name = "app"
version = "{own}"
source = {{ editable = "." }}

[[package]]
name = "idna"
version = "3.10"
source = {{ registry = "https://pypi.org/simple" }}
"""


def test_the_own_version_in_cargo_and_uv_locks(tmp_path: Path) -> None:
    base = {"Cargo.lock": _CARGO.format(own="0.4.0"), "uv.lock": _UV.format(own="2.0.0")}
    head = {"Cargo.lock": _CARGO.format(own="0.5.0"), "uv.lock": _UV.format(own="2.1.0")}
    assert found(run_check(lockfiles.run, tmp_path, base, head)) == []
    itoa = {"Cargo.lock": _CARGO.format(own="0.5.0").replace("1.0.11", "1.0.12")}
    assert found(run_check(lockfiles.run, tmp_path / "twin", base, itoa)) == [
        ("Cargo.lock", 1, "lockfile")]


# hynek/svcs 7d56b11: a package already locked added to the project's own typing group
_UV_GROUPS = """\
version = 1

[[package]]
name = "app"
version = "1.0.0"
source = {{ editable = "." }}

[package.dev-dependencies]
typing = [
    {{ name = "idna" }},{extra}
]

[[package]]
name = "httpx"
version = "0.28.1"
source = {{ registry = "https://pypi.org/simple" }}
sdist = {{ url = "https://files.example/httpx-0.28.1.tar.gz", hash = "sha256:{hash}" }}

[[package]]
name = "idna"
version = "3.10"
source = {{ registry = "https://pypi.org/simple" }}
"""


def test_a_change_in_the_projects_own_entries_only_is_a_notice(tmp_path: Path) -> None:
    base = {"uv.lock": _UV_GROUPS.format(extra="", hash="aa")}
    head = {"uv.lock": _UV_GROUPS.format(extra='\n    { name = "httpx" },', hash="aa")}
    result = run_check(lockfiles.run, tmp_path, base, head)
    assert (result.status, [f.severity for f in result.findings]) == ("passed", ["notice"])
    assert "every locked package, its source and hashes are as they were" in (
        result.findings[0].message)
    # the twin: the same, and the locked httpx's hash changed: new code, said as before
    twin = {"uv.lock": _UV_GROUPS.format(extra='\n    { name = "httpx" },', hash="bb")}
    result = run_check(lockfiles.run, tmp_path / "twin", base, twin)
    assert (result.status, [f.severity for f in result.findings]) == ("failed", ["warning"])


def test_an_npm_roots_dependency_list_alone_is_a_notice(tmp_path: Path) -> None:
    base = _npm("1.2.0")
    head = json.loads(base)
    head["packages"][""]["devDependencies"] = {"foo": "^1"}
    result = run_check(lockfiles.run, tmp_path, {"package-lock.json": base},
                       {"package-lock.json": json.dumps(head, indent=2) + "\n"})
    assert (result.status, [f.severity for f in result.findings]) == ("passed", ["notice"])
