"""agent-config: what steers the agents and what the workflows may do, read as data."""
from __future__ import annotations

import posixpath

from ruamel.yaml.error import YAMLError

from gate.checks.agent_config import instructions, paths, settings, workflow_access
from gate.checks.check_config import workflow_diff
from gate.checks.common import from_findings
from gate.engine.context import DiffContext
from gate.models import CheckResult, Finding
from gate.vcs import git
from gate.vcs.diff import ChangedFile

ID = "agent-config"
TITLE = "Agent control plane reviewed"
EXPLANATION = """\
Flags changes to what steers the coding agents and to what the project's workflows may do. A
change made by an agent can change how the next agent works, or take the gate out of its loop.

The files of Claude Code, Cursor (rules, `hooks.json`, MCP), GitHub Copilot, VS Code's chat
settings (`chat.*` in `.vscode/settings.json`, `.vscode/mcp.json`), Windsurf, Gemini CLI, Codex
(`AGENTS.md` in any folder), Aider, Continue and Cline, each where its documentation says the
tool reads it (the table in docs/agents.md); the targets of those that are symbolic links, the
files an instructions file imports with `@path`, in turn; and the globs of
`agent-config-paths` in the gate's config. The list is read from the base branch, as the rest
of the config: a head cannot shorten it.

- Instructions (markdown, text) are quoted, added and removed lines, shortened, at their lines
  (rule `instructions`): the judgement is the reviewer's. A change that only mends spelling or
  re-wraps the text is a notice.
- Settings and tool config (JSON, YAML, TOML) are compared as data, key by key: a hook removed,
  changed or added, by its event (`Stop`, `PreToolUse`...: `hook-removed`, `hook-changed`,
  `hook-added`), every setting of a hook compared (a timeout, a matcher, continue-on-error);
  a permission widened (`allow` gained `Bash(*)`, `deny` lost a rule, a wider default mode,
  VS Code's `chat.tools.autoApprove`: `permission-widened`); an MCP server added or its
  command, arguments, URL or environment changed (`mcp-server-added`, `mcp-server-changed`);
  the sessions' `env`, a credentials helper, plugins and their marketplaces
  (`setting-changed`). Other keys are notices.
- A hook or a hook script's line that ran the gate (`gate hook agent-stop`, `gate submit`...)
  and is gone, or every hook switched off, is an error (`gate-hook-removed`): the agent's work
  is no longer checked where it was; so is the gate's hook kept with a setting changed
  (`gate-hook-changed`: `"timeout": 1`).
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


MOST_FOLLOWED = 200  # files reached through links and imports, at most


def _followed(ctx: DiffContext, extra: tuple[str, ...]) -> set[str]:
    """What the base's instructions and settings reach: the target of each one that is a
    symbolic link (`CLAUDE.md -> docs/agent-guide.md`), and the files an instructions file
    imports with `@path`, followed in turn, through links and imports alike. Read from the
    base, so the head cannot shorten the list."""
    links = set(git.symlinks(ctx.repo, ctx.base))
    todo = [p for p in git.ls_files(ctx.repo, ctx.base)
            if paths.steers(p, extra) and not paths.is_workflow(p)]
    found: set[str] = set()
    ctx.read(ctx.base, todo)  # one batch for the files the list names; the rest as reached
    while todo and len(found) < MOST_FOLLOWED:
        path = todo.pop()
        blob = ctx.read(ctx.base, [path])[path]
        if blob is None:
            continue
        text = blob.decode("utf-8", "replace")
        if path in links:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), text.strip()))
            reached = [target] if not target.startswith("..") else []
        elif paths.kind(path) == "instructions":
            reached = list(paths.imports(path, text))
        else:
            reached = []
        for target in reached:
            if target not in found:
                found.add(target)
                todo.append(target)
    return found


def _agent_keys(path: str, data: settings.Data) -> settings.Data:
    """VS Code's settings hold the editor's too: only its agents' keys are read."""
    if path != paths.VSCODE_SETTINGS:
        return data
    return {k: v for k, v in data.items() if k.startswith(paths.VSCODE_AGENT_KEYS)}


def _settings(f: ChangedFile, old: str, new: str) -> list[Finding] | None:
    """None when either side does not parse: the file is then compared as text."""
    try:
        before = _agent_keys(f.path, settings.load(f.path, old) if old else {})
        after = _agent_keys(f.path, settings.load(f.path, new) if new else {})
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
    extra = (*ctx.config.agent_config_paths,)
    extra = (*extra, *sorted(_followed(ctx, extra)))
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
