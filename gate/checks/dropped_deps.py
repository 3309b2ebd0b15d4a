"""For base-tests: the base's test files could not run over the head code because they import
a module the head's install no longer brings (marshmallow 230aa279 dropped `pytz` from its
`tests` extra with the tests that used it; the base's `tests/base.py`, put back, imports it and
the conftest does not load). Not the head code failing a test: a dependency the tests needed was
dropped, said at the manifest's line where the change dropped it.

`packaging` is imported where a requirement is read (only when base-tests could not run), not
with the module: the command line's start-up does not pay for it (see upgrade_policy)."""
from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Collection, Iterator, Mapping, Sequence

from gate import toml
from gate.models import Finding
from gate.outcomes import baseline, junit
from gate.outcomes.record import CaseResult

RULE = "test-dependency-dropped"
MANIFEST = "pyproject.toml"
_CONFTEST = "ImportError while loading conftest"  # pytest's line when a conftest did not import


@dataclasses.dataclass(frozen=True)
class Dropped:
    """A requirement the base's manifest lists and the head's no longer does."""
    name: str  # canonical: `pytz`, `python-dateutil`
    where: str  # "pyproject.toml's `tests` extra"
    line: int  # the line of that list in the head's manifest (1 where it is gone)


def _lists(data: Mapping[str, object]) -> Iterator[tuple[str, str, list[object]]]:
    """(table key, how it is said, requirements) of a pyproject's dependency lists."""
    project = data.get("project")
    project = project if isinstance(project, dict) else {}
    if isinstance(project.get("dependencies"), list):
        yield "dependencies", "dependencies", project["dependencies"]
    for table, what in ((project.get("optional-dependencies"), "extra"),
                        (data.get("dependency-groups"), "dependency group")):
        for key, items in (table or {}).items() if isinstance(table, dict) else ():
            if isinstance(items, list):
                yield str(key), f"`{key}` {what}", items


def _names(items: list[object]) -> set[str]:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name
    out = set()
    for item in items:
        try:
            out.add(canonicalize_name(Requirement(item).name) if isinstance(item, str) else "")
        except InvalidRequirement:
            continue
    return out - {""}


def _parse(text: str | None) -> dict[str, object]:
    try:
        return toml.loads(text) if text is not None else {}
    except toml.TOMLDecodeError:
        return {}


def dropped(base_manifest: str | None, head_manifest: str | None) -> tuple[Dropped, ...]:
    """The requirements of the base's pyproject.toml lists that the head's same list lacks."""
    head_lists = {key: _names(items) for key, _, items in _lists(_parse(head_manifest))}
    lines = (head_manifest or "").splitlines()
    out = []
    for key, what, items in _lists(_parse(base_manifest)):
        line = next((n for n, text in enumerate(lines, 1)
                     if re.match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=", text)), 1)
        out += [Dropped(name, f"{MANIFEST}'s {what}", line)
                for name in sorted(_names(items) - head_lists.get(key, set()))]
    return tuple(out)


def missing_modules(failed: Sequence[CaseResult], output: str) -> list[str]:
    """The top-level modules that stopped the base's files from being collected: in the
    modules pytest could not collect, and where a conftest did not load (pytest stops there,
    exit 4, and names no test). A dotted name is not one: its package imported (Python names
    the top-level module when that is missing), so a submodule the head removed from its own
    package is not said to be a dependency the install lacks."""
    said = [c.message for c in failed if junit.not_collected(c)]
    at = output.find(_CONFTEST)
    if at >= 0:
        said.append(output[at:])
    found = [m.group(1) for text in said for m in baseline.NO_MODULE.finditer(text)]
    return list(dict.fromkeys(name for name in found if "." not in name))


def stopped_by(case: CaseResult, modules: Collection[str]) -> bool:
    """Whether `case` is a module not collected for want of one of `modules`."""
    return junit.not_collected(case) and any(
        m.group(1) in modules for m in baseline.NO_MODULE.finditer(case.message))


def _imports(path: str, content: bytes) -> dict[str, int]:
    """The top-level modules a Python file imports (absolute imports), each at its first line."""
    try:
        tree = ast.parse(content, path)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            out[top] = min(out.get(top, node.lineno), node.lineno)
    return out


def _provides(requirement: str, module: str) -> bool:
    """Whether a requirement's distribution reads as the module's: `pytz` for `pytz`,
    `python-dateutil` for `dateutil` (its metadata is not at hand: the head lacks it)."""
    from packaging.utils import canonicalize_name
    name, top = canonicalize_name(requirement).replace("-", "_"), module.lower()
    return name in (top, f"python_{top}", f"py{top}")


def findings(modules: Sequence[str], base_files: Mapping[str, bytes | None],
             manifest: Sequence[Dropped]) -> dict[str, Finding]:
    """By missing module, the finding for one that the base's files put back import, or that
    the change dropped from the manifest: at the manifest's line where it was dropped, else
    at the import of the first base file that imports it."""
    imports = {p: _imports(p, c) for p, c in sorted(base_files.items())
               if c is not None and p.endswith(".py")}
    out = {}
    for module in modules:
        importers = [(p, found[module]) for p, found in imports.items() if module in found]
        gone = next((d for d in manifest if _provides(d.name, module)), None)
        if not importers and gone is None:
            continue
        needs = (f"the base's test files import `{module}` "
                 f"({', '.join(p for p, _ in importers[:3])})" if importers
                 else f"the base's tests need `{module}`")
        lacks = (f"which the head's install no longer brings (the change dropped it from "
                 f"{gone.where})" if gone else "which the head's install does not bring")
        text = (f"{needs}, {lacks}: the base's tests could not run over the head code; a "
                "dependency the tests needed is gone")
        path, line = (MANIFEST, gone.line) if gone else importers[0]
        out[module] = Finding(path, line, RULE, text, severity="warning")
    return out
