"""The dependency-upgrade policy of `diff-policy`: a change meant to upgrade a package
(`--upgrade NAME==VERSION`) must leave every manifest range that names the package admitting
that version, in pyproject.toml (PEP 621, dependency groups, Poetry), requirements files,
package.json and Cargo.toml. A range that still excludes it means the upgrade did not happen
where the project declares it (an agent that bumped only the lockfile, or one manifest of
several). Ranges that are not versions (a URL, a path) are passed over.

`packaging` is imported where a range is read, not with the module: it is a fifth of the
command line's start-up, which every `gate` command and hook pays, and only `--upgrade` reads
ranges."""
from __future__ import annotations

import dataclasses
import json
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence

from gate import toml
from gate.engine.context import DiffContext
from gate.errors import GateError
from gate.lang import version_ranges
from gate.models import Finding
from gate.vcs import git


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    version: str

    @property
    def given(self) -> str:
        return f"{self.name}=={self.version}"


def parse_target(text: str) -> Target:
    """`NAME==VERSION` (also `NAME@VERSION`, as npm writes it)."""
    match = re.fullmatch(r"\s*(@?[A-Za-z0-9][A-Za-z0-9._/-]*)\s*(?:==|@)\s*"
                         r"v?([0-9][0-9A-Za-z.+-]*)\s*", text)
    if match is None:
        raise GateError(f"--upgrade {text!r}: give the package and the version it is upgraded "
                        "to, as NAME==VERSION (requests==2.32.3, lodash==4.17.21)")
    return Target(match.group(1), match.group(2))


@dataclasses.dataclass(frozen=True)
class Entry:
    path: str
    line: int
    name: str
    spec: str  # the range as the manifest writes it
    language: str  # "python", "npm", "cargo", "poetry"


def _line_of(text: str, *needles: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if any(n in line for n in needles):
            return number
    return 1


def _python_requirements(path: str, text: str, items: list[object]) -> Iterator[Entry]:
    from packaging.requirements import InvalidRequirement, Requirement
    for item in items:
        if not isinstance(item, str):
            continue
        try:
            req = Requirement(item)
        except InvalidRequirement:
            continue
        yield Entry(path, _line_of(text, item), req.name, str(req.specifier), "python")


def _pyproject(path: str, text: str) -> Iterator[Entry]:
    data = toml.loads(text)
    project = data.get("project", {})
    lists = [project.get("dependencies", []),
             *project.get("optional-dependencies", {}).values(),
             *data.get("dependency-groups", {}).values()]
    for items in lists:
        if isinstance(items, list):
            yield from _python_requirements(path, text, items)
    poetry = data.get("tool", {}).get("poetry", {})
    tables = [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {}),
              *(g.get("dependencies", {}) for g in poetry.get("group", {}).values()
                if isinstance(g, dict))]
    for table in tables:
        for name, value in table.items() if isinstance(table, dict) else ():
            spec = value.get("version") if isinstance(value, dict) else value
            if isinstance(spec, str):
                yield Entry(path, _line_of(text, f"{name} =", f'"{name}"'), name, spec, "poetry")


def _requirements_txt(path: str, text: str) -> Iterator[Entry]:
    from packaging.requirements import InvalidRequirement, Requirement
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        yield Entry(path, number, req.name, str(req.specifier), "python")


def _package_json(path: str, text: str) -> Iterator[Entry]:
    data = json.loads(text)
    for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        table = data.get(key, {}) if isinstance(data, dict) else {}
        for name, spec in table.items() if isinstance(table, dict) else ():
            if isinstance(spec, str):
                yield Entry(path, _line_of(text, f'"{name}"'), name, spec, "npm")


def _cargo_toml(path: str, text: str) -> Iterator[Entry]:
    data = toml.loads(text)
    tables = [data.get(k, {}) for k in ("dependencies", "dev-dependencies", "build-dependencies")]
    tables.append(data.get("workspace", {}).get("dependencies", {}))
    tables += [t.get(k, {}) for t in data.get("target", {}).values() if isinstance(t, dict)
               for k in ("dependencies", "dev-dependencies")]
    for table in tables:
        for key, value in table.items() if isinstance(table, dict) else ():
            spec = value.get("version") if isinstance(value, dict) else value
            name = value.get("package", key) if isinstance(value, dict) else key
            if isinstance(spec, str):
                yield Entry(path, _line_of(text, f"{key} =", f"[dependencies.{key}]"),
                            str(name), spec, "cargo")


Reader = Callable[[str, str], Iterator[Entry]]


def _reader(path: str) -> Reader | None:
    name = posixpath.basename(path)
    if "node_modules/" in path or path.startswith("vendor/"):
        return None
    if name == "pyproject.toml":
        return _pyproject
    if name == "package.json":
        return _package_json
    if name == "Cargo.toml":
        return _cargo_toml
    if name.endswith(".txt") and ("requirements" in name or "/requirements" in path):
        return _requirements_txt
    return None


def _same(entry: Entry, target: Target) -> bool:
    if entry.language in ("python", "poetry"):
        from packaging.utils import canonicalize_name
        return canonicalize_name(entry.name) == canonicalize_name(target.name)
    if entry.language == "cargo":
        return entry.name.replace("_", "-") == target.name.replace("_", "-")
    return entry.name == target.name


def admits(entry: Entry, version: str) -> bool | None:
    """Whether the entry's range admits `version`; None where it cannot be told."""
    spec = entry.spec.strip()
    semver = spec.startswith("^") or (spec.startswith("~") and not spec.startswith("~="))
    if entry.language == "python" or (entry.language == "poetry" and not semver):
        if entry.language == "poetry" and spec and spec[0].isdigit():
            spec = "==" + spec  # Poetry's bare version is exact
        from packaging.specifiers import InvalidSpecifier, SpecifierSet
        from packaging.version import InvalidVersion, Version
        try:
            return SpecifierSet("" if spec == "*" else spec).contains(Version(version),
                                                                      prereleases=True)
        except (InvalidSpecifier, InvalidVersion):
            return None
    parsed = version_ranges.parse_version(version)
    if parsed is None:
        return None
    if entry.language == "cargo":
        return version_ranges.cargo_admits(entry.spec, parsed)
    return version_ranges.npm_admits(entry.spec, parsed)


def entries(ctx: DiffContext) -> list[Entry]:
    """Every dependency entry of every manifest at the head."""
    paths = [p for p in git.ls_files(ctx.repo, ctx.head) if _reader(p) is not None]
    found: list[Entry] = []
    for path, blob in ctx.read(ctx.head, paths).items():
        reader = _reader(path)
        if blob is None or reader is None:
            continue
        try:
            found += reader(path, blob.decode("utf-8", "replace"))
        except (ValueError, toml.TOMLDecodeError, AttributeError):
            continue  # a manifest that does not parse is check-config's business
    return found


def findings(ctx: DiffContext, targets: Sequence[Target]) -> list[Finding]:
    """A finding at each range that excludes an upgrade's version, and one where no manifest
    names the package at all."""
    if not targets:
        return []
    listed = entries(ctx)
    out = []
    for target in targets:
        named = [e for e in listed if _same(e, target)]
        if not named:
            out.append(Finding(listed[0].path if listed else ".", 1, "upgrade-not-found",
                               f"no manifest names {target.name}, which this change upgrades "
                               f"(--upgrade {target.given})", severity="error"))
        for entry in named:
            if admits(entry, target.version) is False:
                shown = entry.spec or "(no range)"
                out.append(Finding(entry.path, entry.line, "upgrade-not-admitted",
                                   f"{entry.name} {shown} does not admit {target.version}, the "
                                   f"version this change upgrades to (--upgrade {target.given})"
                                   ": widen or move the range", severity="error"))
    return out
