"""The package's own test helpers: modules outside every test tree that the tests load as a
pytest plugin or take fixtures from, read from one side of the change (the gate reads the
base's: a head cannot add to the list to take its code out of what is judged as code).

A module is a helper when
- a conftest names it in `pytest_plugins`, or the pytest configuration's `addopts` loads it
  with `-p NAME`: pytest loads it as a plugin;
- a `pytest11` entry point names it (pyproject's `[project.entry-points.pytest11]`, Poetry's
  and flit's tables, setup.cfg's `[options.entry_points]`, setup.py's `entry_points`): the
  install registers it and pytest loads it into every run. Not where the distribution is
  itself a pytest plugin (named `pytest-*`), nor a top-level module or package (the package
  is the plugin: `time_machine = time_machine`): there the plugin is the code under test;
- a conftest imports it (`from mypkg.testing import *`) and it defines a fixture or a
  `pytest_*` hook. A module conftest imports only for the code under test
  (`from mypkg import parse`) is code, and so is a top-level module or package, whatever it
  defines (`import time_machine`, whose fixture is its product);
- a helper imports it (`from .fixtures import *`) and it defines a fixture or a hook, or a
  helper names it in its own `pytest_plugins`.

Each helper has a scope: the directory whose tests load it ("" for every test).
"""
from __future__ import annotations

import ast
import configparser
import dataclasses
import posixpath
import re
import shlex
from collections.abc import Callable, Iterator, Sequence

from gate import toml
from gate.lang import testfiles

Reader = Callable[[Sequence[str]], "dict[str, bytes | None]"]

ROOTS = ("", "src/", "lib/", "python/")  # where a project keeps its importable packages
ENTRY_TABLES = (("project", "entry-points"), ("tool", "poetry", "plugins"),
                ("tool", "flit", "entrypoints"))
GROUP = "pytest11"
_FIXTURE_DECORATORS = frozenset({"fixture", "yield_fixture"})


@dataclasses.dataclass(frozen=True)
class Helper:
    path: str
    scope: str  # the directory whose tests load it; "" for every test
    how: str  # how the tests load it, for messages
    module: str = ""  # its module name

    def spellings(self) -> list[str]:
        """The other files Python may import for its module, in any of the package roots: a
        package beside a module (`calc/testing/__init__.py`, imported before
        `calc/testing.py`), or the module under another root on the path."""
        rel = self.module.replace(".", "/")
        return [p for root in ROOTS for p in (f"{root}{rel}.py", f"{root}{rel}/__init__.py")
                if self.module and p != self.path]


def _parse(blob: bytes | None) -> ast.Module | None:
    if blob is None:
        return None
    try:
        return ast.parse(blob.decode("utf-8", "replace"))
    except (SyntaxError, ValueError):
        return None


def _strings(node: ast.expr) -> list[str]:
    """The strings of a literal string, list, tuple or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def plugins_named(tree: ast.Module) -> list[str]:
    """The modules a file's module-level `pytest_plugins` names."""
    out = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in targets):
                out += _strings(node.value)
    return out


def _package_of(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def imported(tree: ast.Module, module: str = "", is_package: bool = False) -> list[str]:
    """The modules a file imports, anywhere in it; for `from a import b`, both `a` and `a.b`
    (b may be a module). Relative imports resolved against `module` (the file's own name)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not module:
                    continue
                parts = _package_of(module, is_package).split(".")
                if node.level - 1 >= len(parts):
                    continue
                base = ".".join(parts[:len(parts) - (node.level - 1)])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            out.append(source)
            out += [f"{source}.{a.name}" for a in node.names if a.name != "*"]
    return [m for m in out if m]


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def defines_fixtures(tree: ast.Module) -> bool:
    """Whether a module defines a pytest fixture or a module-level `pytest_*` hook."""
    if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
           and n.name.startswith("pytest_") for n in tree.body):
        return True
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and any(_decorator_name(d) in _FIXTURE_DECORATORS for d in n.decorator_list)
               for n in ast.walk(tree))


def fixtures_defined(tree: ast.Module) -> dict[str, int]:
    """The fixtures a module defines (by function name, as pytest names them unless `name=`
    says otherwise), with their lines."""
    return {n.name: n.lineno for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(_decorator_name(d) in _FIXTURE_DECORATORS for d in n.decorator_list)}


def star_imported(read: Reader, files: Sequence[str], python_files: Sequence[str],
                  ) -> dict[str, str]:
    """Path -> a conftest that imports it with `*`, for each module of the project outside
    the test trees: whatever fixture it defines, now or after a change, is that conftest's."""
    modules = _Modules(files, python_files)
    conftests = sorted(p for p in files if testfiles.is_test_infrastructure(p))
    out: dict[str, str] = {}
    for conftest, blob in read(conftests).items():
        tree = _parse(blob)
        for node in ast.walk(tree) if tree is not None else ():
            if (isinstance(node, ast.ImportFrom) and not node.level and node.module
                    and any(a.name == "*" for a in node.names)):
                for path, _, _ in modules.resolve(node.module):
                    out.setdefault(path, conftest)
    return out


class _Modules:
    """Module names to the project's files, by the usual package roots."""

    def __init__(self, files: Sequence[str], python_files: Sequence[str]) -> None:
        self.files = set(files)
        self.python_files = python_files

    def resolve(self, name: str) -> list[tuple[str, str, bool]]:
        """(path, module name, is a package) for each file `name` may be."""
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            return []
        rel = name.replace(".", "/")
        out = []
        for root in ROOTS:
            for path, package in ((f"{root}{rel}.py", False), (f"{root}{rel}/__init__.py", True)):
                if path in self.files and not self.is_tests(path):
                    out.append((path, name, package))
        return out

    def is_tests(self, path: str) -> bool:
        """Already test code: in a test tree, a conftest, or a test file."""
        return (testfiles.test_tree(path) is not None or testfiles.is_test_infrastructure(path)
                or testfiles.is_python_test(path, self.python_files))


def _pair(line: str) -> tuple[object, object]:
    name, _, value = line.partition("=")
    return name, value


def _entries(values: object) -> Iterator[tuple[str, str]]:
    """(name, module) of entry points: a table of `name = "mod:attr"`, or lines or a list
    of `name = mod:attr`."""
    items: list[tuple[object, object]]
    if isinstance(values, dict):
        items = list(values.items())
    elif isinstance(values, str):
        items = [_pair(v) for v in values.splitlines() if "=" in v]
    elif isinstance(values, (list, tuple)):
        items = [_pair(v) for v in values if isinstance(v, str)]
    else:
        items = []
    for name, item in items:
        if isinstance(name, str) and isinstance(item, str) and item.strip():
            yield name.strip(), item.split(":", 1)[0].split("[", 1)[0].strip()


def _setup_py_entries(tree: ast.Module) -> Iterator[tuple[str, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == GROUP and value is not None:
                    yield from _entries(_strings(value))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                f"[{GROUP}]" in node.value):
            section = node.value.split(f"[{GROUP}]", 1)[1].split("[", 1)[0]
            yield from _entries(section)


def entry_points(read: Reader) -> tuple[str | None, dict[str, str]]:
    """The distribution's name (None when unknown) and its `pytest11` entry points: name ->
    module."""
    blobs = read(["pyproject.toml", "setup.cfg", "setup.py"])
    name: str | None = None
    found: list[tuple[str, str]] = []
    try:
        data = toml.loads((blobs["pyproject.toml"] or b"").decode("utf-8", "replace"))
    except ValueError:
        data = {}
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("name"), str):
        name = project["name"]
    for table in ENTRY_TABLES:
        where: object = data
        for key in table:
            where = where.get(key, {}) if isinstance(where, dict) else {}
        if isinstance(where, dict):
            found += _entries(where.get(GROUP))
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string((blobs["setup.cfg"] or b"").decode("utf-8", "replace"))
        name = name or parser.get("metadata", "name", fallback=None)
        found += _entries(parser.get("options.entry_points", GROUP, fallback=""))
    except configparser.Error:
        pass
    tree = _parse(blobs["setup.py"])
    if tree is not None:
        found += _setup_py_entries(tree)
        if name is None:
            name = next((k.value.value for k in ast.walk(tree) if isinstance(k, ast.keyword)
                         and k.arg == "name" and isinstance(k.value, ast.Constant)
                         and isinstance(k.value.value, str)), None)
    return name, dict(found)


def _is_pytest_plugin_distribution(name: str | None) -> bool:
    return name is not None and re.match(r"pytest[-_.]", name.lower()) is not None


def addopts_plugins(addopts: str | list[str]) -> list[str]:
    """The plugins `-p NAME` / `-pNAME` names in an `addopts` value, in order (`no:NAME`
    for one it blocks)."""
    words = addopts if isinstance(addopts, list) else _split(addopts)
    out = []
    for i, word in enumerate(words):
        name = words[i + 1] if word == "-p" and i + 1 < len(words) else (
            word[2:] if word.startswith("-p") and len(word) > 2 else "")
        if name:
            out.append(name)
    return out


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _scope(scopes: Sequence[str]) -> str:
    common = posixpath.commonpath(list(scopes)) if all(scopes) else ""
    return common


def find(read: Reader, files: Sequence[str], python_files: Sequence[str],
         addopts: str | list[str] = "") -> dict[str, Helper]:
    """Path -> Helper for every helper module of the project at one ref: `files`, every file
    there; `read`, what reads them; `python_files` and `addopts`, its pytest configuration."""
    modules = _Modules(files, python_files)
    found: dict[str, list[tuple[str, str]]] = {}  # path -> (scope, how)
    names: dict[str, str] = {}  # path -> module
    todo: list[tuple[str, str, bool, str, str]] = []  # path, module, package, scope, how
    conftests = sorted(p for p in files if testfiles.is_test_infrastructure(p))
    trees = {p: _parse(b) for p, b in read(conftests).items()}
    dist, entries = entry_points(read)
    named = addopts_plugins(addopts)
    # `-p no:NAME` blocks the entry point NAME (lundberg/respx blocks its own plugin, which
    # its tests load through pytester only)
    entries = {k: v for k, v in entries.items() if f"no:{k}" not in named}
    # the plugin is the product: a pytest-* distribution's, or a top-level module's or package's
    products = set(entries.values()) if _is_pytest_plugin_distribution(dist) else {
        e for e in entries.values() if "." not in e}
    for name in entries.values():
        todo += [(*m, "", "a pytest11 entry point") for m in modules.resolve(name)]
    for name in (n for n in named if not n.startswith("no:")):  # an entry point, else a module
        module = entries.get(name, name)
        todo += [(*m, "", f"`-p {name}` in the pytest configuration")
                 for m in modules.resolve(module)
                 if module in entries.values() or not (m[2] and "." not in module)]
    candidates: list[tuple[str, str, bool, str, str]] = []
    for conftest, tree in trees.items():
        if tree is None:
            continue
        scope = posixpath.dirname(conftest)
        for name in plugins_named(tree):
            todo += [(*m, scope, f"`pytest_plugins` in {conftest}")
                     for m in modules.resolve(name)]
        for name in imported(tree):
            candidates += [(*m, scope, f"imported by {conftest}")
                           for m in modules.resolve(name) if "." in name]
    todo += [c for c in candidates if c[1] not in products and _fixtures_in(read, c[0])]
    seen: set[str] = set()
    while todo:
        path, module, package, scope, how = todo.pop()
        if module in products:
            continue
        found.setdefault(path, []).append((scope, how))
        names[path] = module
        if path in seen:
            continue
        seen.add(path)
        tree = _parse(read([path])[path])
        if tree is None:
            continue
        todo += [(*m, scope, f"loaded by {path}") for name in plugins_named(tree)
                 for m in modules.resolve(name)]
        todo += [(*m, scope, f"imported by {path}")
                 for name in imported(tree, module, package) for m in modules.resolve(name)
                 if "." in name and m[0] not in seen and _fixtures_in(read, m[0])]
    return {path: Helper(path, _scope([s for s, _ in ways]), ways[0][1], names[path])
            for path, ways in sorted(found.items())}


def _fixtures_in(read: Reader, path: str) -> bool:
    tree = _parse(read([path])[path])
    return tree is not None and defines_fixtures(tree)
