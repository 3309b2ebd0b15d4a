"""The agents' control plane read whole (issue 48): hooks compared in full, every agent's own
files, instruction files followed through symbolic links and `@path` imports."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from helpers.diffcheck import Files, run_check
from helpers.gitrepo import Repo

from gate.checks.agent_config import check, paths
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff

DOCS = Path(__file__).resolve().parents[3] / "docs" / "agents.md"
GATE_STOP = {"type": "command", "command": "gate hook agent-stop --base main"}


def _run(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(check.run, tmp_path, {"README.md": "# app\n", **base}, head)


def _rules(result: CheckResult) -> list[tuple[str, str, str]]:
    return [(f.path, f.rule, f.severity) for f in result.findings]


def _json(data: object) -> str:
    return json.dumps(data, indent=2) + "\n"


def test_the_gate_hook_kept_with_a_one_second_timeout_is_an_error(tmp_path: Path) -> None:
    """The same command, plus `"timeout": 1`: hooks were compared by command and matcher."""
    base = {"hooks": {"Stop": [{"hooks": [GATE_STOP]}]}}
    head = {"hooks": {"Stop": [{"hooks": [{**GATE_STOP, "timeout": 1}]}]}}
    result = _run(tmp_path, {".claude/settings.json": _json(base)},
                  {".claude/settings.json": _json(head)})
    assert _rules(result) == [(".claude/settings.json", "gate-hook-changed", "error")]
    assert "its settings changed: timeout" in result.findings[0].message


def test_any_setting_of_another_hook_is_compared(tmp_path: Path) -> None:
    """A matcher widened and continue-on-error set, on a hook whose command stays."""
    hook = {"type": "command", "command": "ruff check"}
    base = {"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [hook]}]}}
    head = {"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [
        {**hook, "continueOnError": True}]}]}}
    result = _run(tmp_path, {".gemini/settings.json": _json(base)},
                  {".gemini/settings.json": _json(head)})
    assert _rules(result) == [(".gemini/settings.json", "hook-changed", "warning")]
    message = result.findings[0].message
    assert "continueOnError" in message and "group matcher" in message


def test_the_gate_hook_removed_from_cursors_hooks_json_is_an_error(tmp_path: Path) -> None:
    base = {"version": 1, "hooks": {"stop": [{"command": "gate hook agent-stop --base main"}],
                                    "afterFileEdit": [{"command": "./fmt.sh"}]}}
    head = {"version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}]}}
    result = _run(tmp_path, {".cursor/hooks.json": _json(base)},
                  {".cursor/hooks.json": _json(head)})
    assert _rules(result) == [(".cursor/hooks.json", "gate-hook-removed", "error")]


def test_vscode_chat_auto_approve_is_a_wider_permission(tmp_path: Path) -> None:
    """`chat.tools.autoApprove: true` in .vscode/settings.json, which was not read; the
    editor's own settings in the same file stay quiet."""
    base = {"editor.fontSize": 12}
    head = {"editor.fontSize": 14, "chat.tools.autoApprove": True}
    result = _run(tmp_path, {".vscode/settings.json": _json(base)},
                  {".vscode/settings.json": _json(head)})
    assert _rules(result) == [(".vscode/settings.json", "permission-widened", "warning")]
    quiet = _run(tmp_path / "2", {".vscode/settings.json": _json(base)},
                 {".vscode/settings.json": _json({"editor.fontSize": 14})})
    assert quiet.findings == ()


@pytest.mark.parametrize("path", [
    ".cursor/rules/testing.mdc", ".windsurf/workflows/release.md", ".windsurfrules",
    ".continue/rules/tests.md", ".github/instructions/py.instructions.md",
    ".github/copilot-instructions.md", "GEMINI.md", "services/api/AGENTS.md",
    "CLAUDE.md", ".clinerules",
])
def test_each_agents_instructions_are_read(tmp_path: Path, path: str) -> None:
    """One file of each agent's, where its documentation says it reads it (AGENTS.md in a
    subfolder, for Codex)."""
    result = _run(tmp_path, {path: "Run every test.\n"}, {path: "Run the fast tests only.\n"})
    assert [(f.path, f.rule) for f in result.findings] == [(path, "instructions")]


@pytest.mark.parametrize("path", [".continue/mcpServers/db.yaml", ".aider.conf.yml",
                                  ".codex/config.toml", ".cursor/mcp.json"])
def test_each_agents_settings_are_read(tmp_path: Path, path: str) -> None:
    if path.endswith(".toml"):
        old, new = 'approval_policy = "on-request"\n', 'approval_policy = "never"\n'
    elif path.endswith(".json"):
        old, new = _json({"mcpServers": {}}), _json({"mcpServers": {"db": {"command": "x"}}})
    elif "mcpServers" in path:
        old, new = "name: db\n", "name: db\nmcpServers:\n  db: {command: x}\n"
    else:
        old, new = "yes-always: false\n", "yes-always: true\n"
    result = _run(tmp_path, {path: old}, {path: new})
    assert [f.severity for f in result.findings] == ["warning"], result.findings


def _linked(tmp_path: Path) -> tuple[Repo, str, str]:
    """AGENTS.md and CLAUDE.md, links to docs/agent-guide.md; the change rewrites the guide."""
    repo = Repo(tmp_path / "repo")
    repo.write({"docs/agent-guide.md": "Run every test before you stop.\n"})
    for name in ("AGENTS.md", "CLAUDE.md"):
        os.symlink("docs/agent-guide.md", repo.path / name)
    base = repo.commit({}, "base")
    repo.branch("change")
    head = repo.commit({"docs/agent-guide.md": "Run the fast tests only.\n"}, "head")
    return repo, base, head


def test_instructions_behind_a_symbolic_link_are_read(tmp_path: Path) -> None:
    repo, base, head = _linked(tmp_path)
    ctx = DiffContext(str(repo.path), base, head, config.Config(),
                      diff.changed_files(str(repo.path), base, head))
    result = check.run(ctx)
    assert [(f.path, f.rule) for f in result.findings] == [
        ("docs/agent-guide.md", "instructions")]


def test_imports_are_followed_in_turn(tmp_path: Path) -> None:
    """CLAUDE.md imports a file that imports another: the change edits the last."""
    base = {"CLAUDE.md": "Read @docs/agents/index.md first.\n",
            "docs/agents/index.md": "The rules: @rules.md\n",
            "docs/agents/rules.md": "Never skip a test.\n"}
    result = _run(tmp_path, base, {"docs/agents/rules.md": "Skip slow tests.\n"})
    assert [f.path for f in result.findings] == ["docs/agents/rules.md"]


def test_the_agents_are_listed_in_one_place_and_in_docs_agents_md() -> None:
    """docs/agents.md's table names every agent of `paths.AGENTS`, with its source and its
    files."""
    page = DOCS.read_text()
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| ([^|]+?) \|.*$", page, re.M)}
    for agent in paths.AGENTS:
        assert agent.name in rows, agent.name
        row = rows[agent.name]
        assert agent.source in row, agent.name
        for path in (*agent.names, *agent.directories, *agent.root_files,
                     *agent.root_directories):
            assert f"`{path}" in row, (agent.name, path)
