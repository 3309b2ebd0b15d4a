"""Which files steer an agent: the known names of each tool, anywhere in the tree where the
tool reads them there too, plus the globs of the base's `agent-config-paths`.

The list is read from the base (its config and its instructions' `@path` imports), so a head
cannot narrow it: a file it adds to the list only counts from the next change on."""
from __future__ import annotations

import dataclasses
import fnmatch
import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Literal

Kind = Literal["instructions", "settings", "workflow", "file"]


@dataclasses.dataclass(frozen=True)
class Agent:
    """Where one tool reads what steers it in a repository, as its own documentation says."""
    name: str
    source: str  # the documentation page that names these paths
    names: tuple[str, ...] = ()  # file names read in any directory of the tree
    directories: tuple[str, ...] = ()  # directories whose whole content steers it, at any depth
    root_files: tuple[str, ...] = ()  # single files at the root
    root_directories: tuple[str, ...] = ()  # directories at the root


# THE list of agents and their files: docs/agents.md shows the same table (a test keeps them
# in step).
AGENTS: tuple[Agent, ...] = (
    Agent("Claude Code", "https://docs.anthropic.com/en/docs/claude-code/settings",
          names=("CLAUDE.md", "CLAUDE.local.md"), directories=(".claude",),
          root_files=(".mcp.json",)),
    Agent("Cursor", "https://cursor.com/docs/agent/hooks",
          names=(".cursorrules", "AGENTS.md"), directories=(".cursor",)),
    Agent("GitHub Copilot", "https://docs.github.com/en/copilot/how-tos/configure-custom-"
          "instructions/add-repository-instructions",
          names=("AGENTS.md",), root_files=(".github/copilot-instructions.md",),
          root_directories=(".github/instructions", ".github/prompts", ".github/agents",
                            ".github/chatmodes")),
    Agent("VS Code chat", "https://code.visualstudio.com/docs/agents/approvals",
          root_files=(".vscode/settings.json", ".vscode/mcp.json")),
    Agent("Windsurf", "https://docs.windsurf.com/windsurf/cascade/memories",
          names=(".windsurfrules", "AGENTS.md"), directories=(".windsurf",)),
    Agent("Gemini CLI", "https://github.com/google-gemini/gemini-cli/blob/main/docs/"
          "get-started/configuration.md",
          names=("GEMINI.md",), directories=(".gemini",)),
    Agent("Codex", "https://github.com/openai/codex/blob/main/docs/agents_md.md",
          names=("AGENTS.md", "AGENTS.override.md"), directories=(".codex",)),
    Agent("Aider", "https://aider.chat/docs/config/aider_conf.html",
          names=(".aider.conf.yml",),
          root_files=(".aider.model.settings.yml", ".aider.model.metadata.json",
                      ".aiderignore")),
    Agent("Continue", "https://docs.continue.dev/customize/deep-dives/rules",
          directories=(".continue",), root_files=(".continuerc.json",)),
    Agent("Cline", "https://docs.cline.bot/features/cline-rules",
          names=(".clinerules",), directories=(".clinerules",)),
)

NAMES = frozenset(n for a in AGENTS for n in a.names)
DIRECTORIES = tuple(dict.fromkeys(d for a in AGENTS for d in a.directories))
ROOT_FILES = frozenset(f for a in AGENTS for f in a.root_files)
ROOT_DIRECTORIES = tuple(dict.fromkeys(d for a in AGENTS for d in a.root_directories))
# In VS Code's settings, only what steers its agents: the rest is the editor's.
VSCODE_SETTINGS = ".vscode/settings.json"
VSCODE_AGENT_KEYS = ("chat.", "github.copilot.")
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
