"""agent-config: what steers the agents and what the workflows may do, read as data."""
from __future__ import annotations

from ruamel.yaml.error import YAMLError

from gate.checks.agent_config import instructions, paths, settings, workflow_access
from gate.checks.check_config import workflow_diff
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.models import CheckResult, Finding
from gate.vcs.diff import ChangedFile

ID = "agent-config"
TITLE = "Agent control plane reviewed"
EXPLANATION = """\
Flags changes to what steers the coding agents and to what the project's workflows may do. A
change made by an agent can change how the next agent works, or take the gate out of its loop.

The files: `AGENTS.md` (and `AGENTS.override.md`), `CLAUDE.md`, `CLAUDE.local.md`,
`GEMINI.md`, `.cursorrules`, `.windsurfrules`, `.clinerules` (in any directory: the tools read
nested ones), `.windsurf/rules/`, `.clinerules/`, `.claude/`, `.gemini/`,
`.codex/`, `.cursor/rules/` (at any depth), `.mcp.json`, `.cursor/mcp.json`,
`.vscode/mcp.json`, `.aider.conf.yml`, `.github/copilot-instructions.md`,
`.github/instructions/`, `.github/prompts/`, `.github/agents/`, the files an instructions
file imports with `@path`, and the globs of `agent-config-paths` in the gate's config. The list
is read from the base branch, as the rest of the config: a head cannot shorten it.

- Instructions (markdown, text) are quoted, added and removed lines, shortened, at their lines
  (rule `instructions`): the judgement is the reviewer's. A change that only mends spelling or
  re-wraps the text is a notice.
- Settings and tool config (JSON, YAML, TOML) are compared as data, key by key: a hook removed,
  changed or added, by its event (`Stop`, `PreToolUse`...: `hook-removed`, `hook-changed`,
  `hook-added`); a permission widened (`allow` gained `Bash(*)`, `deny` lost a rule, a wider
  default mode: `permission-widened`); an MCP server added or its command, arguments, URL or
  environment changed (`mcp-server-added`, `mcp-server-changed`); the sessions' `env`, a
  credentials helper, plugins and their marketplaces (`setting-changed`). Other keys are
  notices.
- A hook or a hook script's line that ran the gate (`gate hook agent-stop`, `gate submit`...)
  and is gone, or every hook switched off, is an error (`gate-hook-removed`): the agent's work
  is no longer checked where it was.
- Workflows (`.github/workflows/`): `permissions` widened at the top level or for a job, with
  the scope and the old and new level, `write-all`, removed so that the repository's default
  token applies, or a new workflow or job that asks to write (`workflow-permissions`); a new
  `pull_request_target` or `workflow_run` trigger (`workflow-trigger`); `secrets: inherit`,
  or a secret newly named by a job that runs the pull request's code (`workflow-secrets`).
  Each beside diff-policy's forbidden path.

A finding makes the verdict needs-review (notices alone do not). It cannot be allowed with a
comment: the comment would sit in the very file the agent changed. Resolve it by having a
person read the change and approve it, or by reverting it; to read more files, add their globs
to `agent-config-paths` on the base branch."""


_UNREADABLE = (ValueError, TypeError, YAMLError, RecursionError)


def _decode(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "replace")


def _imported(ctx: DiffContext) -> set[str]:
    """The files the base's root instructions import with `@path`."""
    roots = sorted(paths.NAMES)
    found: set[str] = set()
    for path, blob in ctx.read(ctx.base, roots).items():
        if blob is not None:
            found.update(paths.imports(path, blob.decode("utf-8", "replace")))
    return found


def _settings(f: ChangedFile, old: str, new: str) -> list[Finding] | None:
    """None when either side does not parse: the file is then compared as text."""
    try:
        before = settings.load(f.path, old) if old else {}
        after = settings.load(f.path, new) if new else {}
    except _UNREADABLE:  # not data the check can read
        return None
    return settings.compare(f.path, before, after, new)


def _workflow(f: ChangedFile, old: str, new: str) -> list[Finding]:
    try:
        before = workflow_diff.load(old) if old else {}
        after = workflow_diff.load(new) if new else {}
    except _UNREADABLE:  # check-config says that a workflow does not parse
        return []
    return workflow_access.compare(f.path, before, after, new)


def _file(f: ChangedFile, old: str, new: str) -> list[Finding]:
    what = {"instructions": "instructions to agents changed",
            "file": "a file that steers the agents changed",
            "settings": "agent settings changed"}
    kind = paths.kind(f.path)
    if kind == "workflow":
        return _workflow(f, old, new)
    if f.binary:
        return [Finding(path=f.path, line=1, rule="agent-file", severity="warning",
                        message=f"binary file {f.status}: {what['file']}")]
    if kind == "settings":
        found = _settings(f, old, new)
        if found is not None:
            return found
    gone = instructions.gate_lines_removed(f.path, old, new) if kind != "instructions" else []
    if not new and old:
        return [*gone, Finding(path=f.path, line=1, rule="agent-file", severity="warning",
                               message=f"{f.path} deleted: {what[kind]}")]
    return gone + instructions.compare(f.path, old, new, what[kind])


def run(ctx: DiffContext) -> CheckResult:
    extra = (*ctx.config.agent_config_paths, *sorted(_imported(ctx)))
    files = [f for f in ctx.files
             if paths.is_workflow(f.path) or paths.steers(f.path, extra)]
    renamed = workflow_diff.renamed_files(ctx.files)  # compared with their old selves
    old = {new: was for was, new in renamed.items()}
    files = [f for f in files if f.path not in renamed]
    names = [f.path for f in files]
    base = ctx.read(ctx.base, [old.get(p, p) for p in names])
    head = ctx.read(ctx.head, names)
    findings: list[Finding] = []
    for f in files:
        findings += _file(f, _decode(base[old.get(f.path, f.path)]) or "",
                          _decode(head[f.path]) or "")
    return from_findings(ID, TITLE, findings, clean="no agent instructions, settings or "
                         "workflow permissions changed",
                         found="{n} change(s) to what steers the agents")
