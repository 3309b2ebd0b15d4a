"""lockfiles: changed lockfiles, with which packages were added, removed or changed version."""
from __future__ import annotations

import io
import json
import posixpath
import re
from collections.abc import Callable

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from gate import toml
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.models import CheckResult, Finding
from gate.vcs import git, ignore
from gate.vcs.diff import ChangedFile

ID = "lockfiles"
TITLE = "Lockfile changes reviewed"
EXPLANATION = """\
Flags every changed lockfile (package-lock.json, yarn.lock, pnpm-lock.yaml, Cargo.lock,
poetry.lock, uv.lock, go.sum, ...) and says which packages were added, removed or changed version.
A lockfile decides exactly what code is installed and run; an agent that cannot make something
work may add or upgrade a dependency on the way, and lockfile diffs are long enough that nobody
reads them. A lockfile whose only change is the version of the project's own packages (its
release bump) is not flagged; one whose only change is in the project's own entries (what its
packages and groups depend on), every package locked from elsewhere as it was with its source and
hashes, is a notice (pnpm's `importers`, the workspace's own packages and their links, are such
entries), and so is one the change adds while taking it out of the base's `.gitignore` (the
project starts keeping its lockfile). Resolve it by checking that each dependency change was
intended and is trustworthy, and regenerating the lockfile with the project's own tool if it
was edited by hand."""

Packages = dict[str, set[str]]  # name -> versions (a name can be locked at several versions)
LIMIT = 20


def _pairs(pairs: list[tuple[object, object]]) -> Packages:
    out: Packages = {}
    for name, version in pairs:
        if isinstance(name, str) and name:
            out.setdefault(name, set()).add(str(version) if version is not None else "?")
    return out


def _npm_v1(deps: object) -> list[tuple[object, object]]:
    if not isinstance(deps, dict):
        return []
    pairs: list[tuple[object, object]] = []
    for name, entry in deps.items():
        if isinstance(entry, dict):
            pairs.append((name, entry.get("version")))
            pairs.extend(_npm_v1(entry.get("dependencies")))
    return pairs


def _npm(text: str) -> Packages:
    data = json.loads(text)
    packages = data.get("packages") if isinstance(data, dict) else None
    if not isinstance(packages, dict):
        return _pairs(_npm_v1(data.get("dependencies") if isinstance(data, dict) else None))
    return _pairs([
        (entry.get("name") or key.rpartition("node_modules/")[2], entry.get("version"))
        for key, entry in packages.items() if key and isinstance(entry, dict)
    ])


def _toml_packages(text: str) -> Packages:
    packages = toml.loads(text).get("package", [])
    return _pairs([(p.get("name"), p.get("version")) for p in packages if isinstance(p, dict)])


_PNPM_PEERS = re.compile(r"\(.*\)$")


def _pnpm(text: str) -> Packages:
    data = YAML(typ="safe").load(io.StringIO(text))
    packages = data.get("packages") if isinstance(data, dict) else None
    pairs: list[tuple[object, object]] = []
    for key in packages if isinstance(packages, dict) else {}:
        spec = _PNPM_PEERS.sub("", str(key)).lstrip("/")
        at = spec.rfind("@")
        name, version = (spec[:at], spec[at + 1:]) if at > 0 else spec.rpartition("/")[::2]
        pairs.append((name, version))
    return _pairs(pairs)


_YARN_VERSION = re.compile(r'^\s+version:?\s+"?([^"\s]+)"?\s*$')


def _yarn(text: str) -> Packages:
    pairs: list[tuple[object, object]] = []
    name = None
    for line in text.splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            spec = line.split(",")[0].strip().strip('"').rstrip(":").strip('"')
            at = spec.rfind("@")
            name = spec[:at] if at > 0 else None
        elif name and (m := _YARN_VERSION.match(line)):
            pairs.append((name, m.group(1)))
            name = None
    return _pairs(pairs)


def _go_sum(text: str) -> Packages:
    rows = [line.split() for line in text.splitlines()]
    return _pairs([(r[0], r[1].removesuffix("/go.mod")) for r in rows if len(r) == 3])


def _composer(text: str) -> Packages:
    data = json.loads(text)
    entries = [p for key in ("packages", "packages-dev") for p in data.get(key) or []]
    return _pairs([(p.get("name"), p.get("version")) for p in entries if isinstance(p, dict)])


def _pipfile(text: str) -> Packages:
    data = json.loads(text)
    entries = [item for key in ("default", "develop") for item in (data.get(key) or {}).items()]
    return _pairs([(name, entry.get("version", "").lstrip("=") or "?")
                   for name, entry in entries if isinstance(entry, dict)])


_GEM = re.compile(r"^    (\S+) \(([^)]+)\)$")


def _gemfile(text: str) -> Packages:
    return _pairs([(m.group(1), m.group(2)) for m in map(_GEM.match, text.splitlines()) if m])


PARSERS: dict[str, Callable[[str], Packages] | None] = {
    "package-lock.json": _npm, "npm-shrinkwrap.json": _npm, "yarn.lock": _yarn,
    "pnpm-lock.yaml": _pnpm, "bun.lock": None, "Cargo.lock": _toml_packages,
    "poetry.lock": _toml_packages, "uv.lock": _toml_packages, "pdm.lock": _toml_packages,
    "Pipfile.lock": _pipfile, "Gemfile.lock": _gemfile, "go.sum": _go_sum,
    "composer.lock": _composer,
}


def _versions(versions: set[str]) -> str:
    return ", ".join(sorted(versions))


def describe(old: Packages, new: Packages) -> list[str]:
    """`added x 1.0`, then `removed y 2.0`, then `changed z 1.0 -> 2.0`, each by name."""
    added = [f"added {name} {_versions(new[name])}" for name in sorted(set(new) - set(old))]
    removed = [f"removed {name} {_versions(old[name])}" for name in sorted(set(old) - set(new))]
    changed = [f"changed {name} {_versions(old[name])} -> {_versions(new[name])}"
               for name in sorted(set(old) & set(new)) if old[name] != new[name]]
    return added + removed + changed


def _parse(parser: Callable[[str], Packages], text: str | None) -> Packages | None:
    if text is None:
        return {}
    try:
        return parser(text)
    except (ValueError, AttributeError, TypeError, YAMLError):
        return None  # not the shape this parser knows: say only that it changed


def _message(f: ChangedFile, old: str | None, new: str | None) -> str:
    what = {"added": "added", "deleted": "deleted", "modified": "changed"}[f.status]
    parser = PARSERS[posixpath.basename(f.path)]
    if parser is None or f.binary:
        return f"{f.path} {what}"
    before, after = _parse(parser, old), _parse(parser, new)
    if before is None or after is None:
        return f"{f.path} {what}"
    entries = describe(before, after)
    if not entries:
        return f"{f.path} {what}: no package added, removed or changed version"
    more = f"; and {len(entries) - LIMIT} more" if len(entries) > LIMIT else ""
    return f"{f.path} {what}: {'; '.join(entries[:LIMIT])}{more}"


def _npm_unversioned(data: object) -> object:
    """An npm lockfile without the versions of the project's own packages: its root and its
    workspaces (entries installed from no registry)."""
    if not isinstance(data, dict):
        return data
    out = {k: v for k, v in data.items() if k != "version"}
    packages = data.get("packages")
    if isinstance(packages, dict):
        out["packages"] = {
            key: ({k: v for k, v in entry.items() if k != "version"}
                  if isinstance(entry, dict) and "node_modules/" not in key
                  and "resolved" not in entry else entry)
            for key, entry in packages.items()}
    return out


def _toml_unversioned(data: dict[str, object]) -> object:
    """A Cargo, uv or pdm lockfile without the versions of the project's own packages: those
    from no registry (Cargo: no `source`; uv: an editable, virtual or directory source)."""
    packages = data.get("package")
    listed = packages if isinstance(packages, list) else []
    return {**data, "package": [
        {k: v for k, v in p.items() if not (k == "version" and _own_toml(p))}
        if isinstance(p, dict) else p for p in listed]}


def _own_toml(entry: object) -> bool:
    """A Cargo, uv or pdm lock entry of the project's own (from no registry: Cargo, no
    `source`; uv, an editable, virtual or directory source)."""
    if not isinstance(entry, dict):
        return False
    where = entry.get("source")
    return where is None or (isinstance(where, dict) and bool(
        {"editable", "virtual", "directory"} & set(where)))


def _without_own(name: str, text: str) -> object:
    """The lockfile without the project's own entries: every package locked from elsewhere,
    with its version, source and hashes."""
    if name == "pnpm-lock.yaml":  # its `importers` are the workspace's own packages
        data = YAML(typ="safe").load(io.StringIO(text))
        return {k: v for k, v in data.items() if k != "importers"} if isinstance(
            data, dict) else data
    if name in ("package-lock.json", "npm-shrinkwrap.json"):
        data = json.loads(text)
        packages = data.get("packages") if isinstance(data, dict) else None
        return {key: entry for key, entry in packages.items()
                if "node_modules/" in key or (isinstance(entry, dict) and "resolved" in entry)
                } if isinstance(packages, dict) else data
    data = toml.loads(text)
    listed = data.get("package")
    return [p for p in listed if not _own_toml(p)] if isinstance(listed, list) else data


def own_entries_only(name: str, old: str | None, new: str | None) -> bool:
    """Whether only the project's own entries changed (what its packages and groups depend
    on: svcs 7d56b11 added a locked package to its typing groups, with pyproject.toml): every
    package locked from elsewhere is as it was, its source and hashes too, so no new code is
    installed."""
    if old is None or new is None or old == new or name not in (
            "package-lock.json", "npm-shrinkwrap.json", "Cargo.lock", "uv.lock", "pdm.lock",
            "pnpm-lock.yaml"):
        return False
    try:
        return bool(_without_own(name, old) == _without_own(name, new))
    except (ValueError, TypeError, AttributeError, YAMLError):
        return False


def own_version_only(name: str, old: str | None, new: str | None) -> bool:
    """Whether the lockfile changed only in the version of the project's own packages (its
    release bump): no finding."""
    if old is None or new is None or old == new:
        return False
    try:
        if name in ("package-lock.json", "npm-shrinkwrap.json"):
            return bool(_npm_unversioned(json.loads(old)) == _npm_unversioned(json.loads(new)))
        if name in ("Cargo.lock", "uv.lock", "pdm.lock"):
            return bool(_toml_unversioned(toml.loads(old)) == _toml_unversioned(toml.loads(new)))
    except (ValueError, TypeError, AttributeError):
        return False
    return False


def _unignored(ctx: DiffContext, added: list[str]) -> dict[str, ignore.Match]:
    """Lockfiles the change adds that the base's .gitignore ignored and the head's does not."""
    if not added:
        return {}
    before = ignore.ignored(ctx.repo, ctx.base, git.ls_files(ctx.repo, ctx.base), added)
    after = ignore.ignored(ctx.repo, ctx.head, git.ls_files(ctx.repo, ctx.head), added)
    return {p: m for p, m in before.items() if p not in after}


def _decode(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")


def run(ctx: DiffContext) -> CheckResult:
    files = [f for f in ctx.files
             if posixpath.basename(f.path) in PARSERS and not ctx.is_vendored(f.path)]
    paths = [f.path for f in files]
    base, head = ctx.read(ctx.base, paths), ctx.read(ctx.head, paths)
    findings = []
    unignored = _unignored(ctx, [f.path for f in files if f.status == "added"])
    for f in files:
        name, old, new = posixpath.basename(f.path), _decode(base[f.path]), _decode(head[f.path])
        if f.path in unignored:
            findings.append(Finding(
                path=f.path, line=1, rule="lockfile", severity="notice",
                message=f"{f.path} added, and the change takes it out of the base's .gitignore "
                        f"({unignored[f.path].source}:{unignored[f.path].line}): the project "
                        "starts keeping its lockfile; " + _message(f, old, new)))
            continue
        if own_version_only(name, old, new):
            continue
        if own_entries_only(name, old, new):
            findings.append(Finding(
                path=f.path, line=1, rule="lockfile", severity="notice",
                message=f"{f.path} changed only in the project's own entries (what its "
                        "packages and groups depend on): every locked package, its source and "
                        "hashes are as they were"))
            continue
        findings.append(Finding(path=f.path, line=1, rule="lockfile", severity="warning",
                                message=_message(f, old, new)))
    return from_findings(ID, TITLE, findings, clean="no lockfile changed",
                         found="{n} lockfile(s) changed")
