"""Which files steer an agent: the known names of each tool, anywhere in the tree where the
tool reads them there too, plus the globs of the base's `agent-config-paths`.

The list is read from the base (its config and its instructions' `@path` imports), so a head
cannot narrow it: a file it adds to the list only counts from the next change on."""
from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Literal

Kind = Literal["instructions", "settings", "workflow", "file"]

# Read by their tool in any directory of the tree (nested instructions).
NAMES = frozenset({"AGENTS.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md",
                   "GEMINI.md", ".cursorrules", ".windsurfrules", ".clinerules"})
# Directories whose whole content steers a tool, at any depth.
DIRECTORIES = (".claude", ".gemini", ".codex", ".cursor/rules", ".windsurf/rules", ".clinerules")
# Single files at the root.
ROOT_FILES = frozenset({".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".aider.conf.yml",
                        ".github/copilot-instructions.md", ".gemini/settings.json"})
ROOT_DIRECTORIES = (".github/instructions", ".github/prompts", ".github/agents")
WORKFLOWS = ".github/workflows/"

_DATA = (".json", ".jsonc", ".yml", ".yaml", ".toml")
_PROSE = (".md", ".mdc", ".txt", "")


def _under(path: str, directory: str) -> bool:
    return path.startswith(directory + "/") or f"/{directory}/" in f"/{path}"


def is_workflow(path: str) -> bool:
    return path.startswith(WORKFLOWS) and path.endswith((".yml", ".yaml")) \
        and "/" not in path[len(WORKFLOWS):]


def steers(path: str, extra: Sequence[str] = ()) -> bool:
    """Whether `path` is one of the files the check reads (workflows aside)."""
    return (posixpath.basename(path) in NAMES or path in ROOT_FILES
            or any(_under(path, d) for d in DIRECTORIES)
            or any(path.startswith(d + "/") for d in ROOT_DIRECTORIES)
            or any(fnmatch.fnmatchcase(path, glob) for glob in extra))


def kind(path: str) -> Kind:
    if is_workflow(path):
        return "workflow"
    name = posixpath.basename(path)
    ext = posixpath.splitext(name)[1].lower() if not name.startswith(".") or "." in name[1:] \
        else ""
    if ext in _DATA:
        return "settings"
    if ext in _PROSE or name in NAMES:
        return "instructions"
    return "file"


# `@path/to/file` in CLAUDE.md and GEMINI.md: the file is read as part of the instructions.
_IMPORT = re.compile(r"(?:^|\s)@((?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)*\.\w+)")


def imports(instructions_path: str, text: str) -> Iterable[str]:
    """The repository paths an instructions file imports with `@path` (code spans aside)."""
    here = posixpath.dirname(instructions_path)
    for line in re.sub(r"`[^`\n]*`", "", text).splitlines():
        for m in _IMPORT.finditer(line):
            target = m.group(1)
            if target.startswith("~"):
                continue
            joined = posixpath.normpath(posixpath.join(here, target))
            if not joined.startswith(".."):
                yield joined
