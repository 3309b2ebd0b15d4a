"""Packaging hooks that run or load code when the tests run: test-runner plugins registered as
entry points, the build backend, setup.py's cmdclass, and files the interpreter runs at start
(`.pth`, `sitecustomize`, `usercustomize`). Each compared as parsed data, base against head."""
from __future__ import annotations

import ast
import configparser
import posixpath
from collections.abc import Iterator

from gate import toml
from gate.checks.check_config import config_diff
from gate.checks.check_config.config_diff import show
from gate.models import Finding, Severity

PLUGIN_GROUPS = ("pytest11",)  # entry-point groups a test runner loads by itself
PLUGIN_TABLES = ("project.entry-points", "tool.poetry.plugins", "tool.flit.entrypoints")
SITE_FILES = ("sitecustomize.py", "usercustomize.py")
INSTALL_COMMANDS = ("install", "develop", "build_py", "build_ext", "egg_info", "sdist",
                    "bdist_wheel", "editable_wheel", "install_lib", "easy_install")
SITE_WORDS = (".pth", "sitecustomize", "usercustomize", "site-packages", "getsitepackages",
              "getusersitepackages", "get_python_lib", "purelib", "platlib")
PLUGIN_NOTE = ("a test-runner plugin registered by the package: the gate's own install puts it "
               "in the environment and the runner loads it into every run, base-tests included")


def _finding(path: str, line: int, rule: str, message: str,
             severity: Severity = "error") -> Finding:
    return Finding(path, line, rule, message, severity)


def project_name(pyproject: str | None, setup_cfg: str | None) -> str | None:
    """The distribution a repository builds: `[project] name`, else setup.cfg's
    `[metadata] name`; None when neither says."""
    try:
        name = toml.loads(pyproject or "").get("project", {}).get("name")
    except (toml.TOMLDecodeError, AttributeError):
        name = None
    if isinstance(name, str):
        return name
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(setup_cfg or "")
    except configparser.Error:
        return None
    return parser.get("metadata", "name", fallback=None)


def is_site_file(path: str) -> bool:
    name = posixpath.basename(path)
    return name.endswith(".pth") or name in SITE_FILES


def site_file(path: str, line: int) -> Finding:
    return _finding(path, line, "site-hook-file",
                    f"{posixpath.basename(path)} is run by the interpreter at every start once "
                    "installed: it can change any test run without touching a test")


def _toml(text: str | None) -> dict[str, object]:
    try:
        return toml.loads(text or "")
    except ValueError:
        return {}  # a pyproject that does not parse is check-config's finding


def pyproject(path: str, old: str | None, new: str | None) -> list[Finding]:
    base, head, text = _toml(old), _toml(new), new or ""
    out = []
    for table in PLUGIN_TABLES:
        for group in PLUGIN_GROUPS:
            where = f"{table}.{group}"
            for ch in config_diff.changes(config_diff.dig(base, where),
                                          config_diff.dig(head, where)):
                if ch.new is config_diff.ABSENT:
                    continue  # a plugin removed loads nothing
                out.append(_finding(path, config_diff.toml_line(text, where, ch.key),
                                    "test-plugin-entry-point",
                                    f"[{where}] {ch.key}: {show(ch.old)} -> {show(ch.new)}; "
                                    f"{PLUGIN_NOTE}"))
    before, after = config_diff.dig(base, "build-system"), config_diff.dig(head, "build-system")
    for key in ("build-backend", "backend-path"):
        was, now = before.get(key, config_diff.ABSENT), after.get(key, config_diff.ABSENT)
        # a backend changed from one that was set; an in-tree backend path set or moved
        if was != now and (was if key == "build-backend" else now) is not config_diff.ABSENT:
            out.append(_finding(path, config_diff.toml_line(text, "build-system", key),
                                "build-backend", f"[build-system] {key}: {show(was)} -> "
                                f"{show(now)}; the build backend runs code during the gate's "
                                "install", "warning"))
    return out


def _ini(text: str | None) -> dict[str, dict[str, object]]:
    try:
        return config_diff.ini_sections(text or "")
    except configparser.Error:
        return {}


def setup_cfg(path: str, old: str | None, new: str | None) -> list[Finding]:
    section = "options.entry_points"
    base, head = _ini(old).get(section, {}), _ini(new).get(section, {})
    return [_finding(path, config_diff.ini_line(new or "", section, group),
                     "test-plugin-entry-point",
                     f"[{section}] {group}: {show(base.get(group, config_diff.ABSENT))} -> "
                     f"{show(head[group])}; {PLUGIN_NOTE}")
            for group in PLUGIN_GROUPS if group in head and base.get(group) != head[group]]


def _tree(text: str | None) -> ast.Module | None:
    try:
        return ast.parse(text or "")
    except (SyntaxError, ValueError):
        return None


def _hooks(tree: ast.Module) -> Iterator[tuple[str, int, str]]:
    """(kind, line, dump) for each plugin registration and install-command hook in setup.py."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in PLUGIN_GROUPS:
                    yield "test-plugin-entry-point", key.lineno, ast.dump(value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                f"[{group}]" in node.value for group in PLUGIN_GROUPS):
            yield "test-plugin-entry-point", node.lineno, node.value
        elif isinstance(node, ast.keyword) and node.arg == "cmdclass":
            yield "setup-cmdclass", node.value.lineno, ast.dump(node.value)
        elif isinstance(node, ast.ClassDef) and any(
                (b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute)
                 else "") in INSTALL_COMMANDS for b in node.bases):
            yield "setup-cmdclass", node.lineno, ast.dump(node)


def setup_py(path: str, old: str | None, new: str | None,
             added: dict[int, str]) -> list[Finding]:
    head = _tree(new)
    if head is None:
        return []
    base = _tree(old)
    before = {(kind, dump) for kind, _, dump in (_hooks(base) if base is not None else ())}
    out = []
    for kind, line, dump in _hooks(head):
        if (kind, dump) not in before:
            message = (PLUGIN_NOTE if kind == "test-plugin-entry-point" else
                       "a setup.py command hook runs code during the gate's install")
            out.append(_finding(path, line, kind, f"new or changed in setup.py: {message}"))
    seen: set[int] = set()
    for node in ast.walk(head):
        word = (node.value if isinstance(node, ast.Constant) and isinstance(node.value, str)
                else node.attr if isinstance(node, ast.Attribute)
                else node.id if isinstance(node, ast.Name) else None)
        line = getattr(node, "lineno", 0)
        if (word is not None and line in added and line not in seen
                and any(w in word for w in SITE_WORDS)):
            seen.add(line)
            out.append(_finding(path, line, "setup-writes-site",
                                f"setup.py now names `{word[:60]}`: code that writes into the "
                                "environment's site-packages runs at every interpreter start"))
    return out
