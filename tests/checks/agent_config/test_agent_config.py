"""agent-config on real diffs: each kind of change to what steers the agents, and the honest
controls that must stay quiet (a README edit, a typo fixed in CLAUDE.md, an action bumped)."""
from __future__ import annotations

import json
from pathlib import Path

from helpers.diffcheck import Files, run_check

from gate.checks.agent_config import check
from gate.models import CheckResult

GATE_HOOK = {"hooks": {"Stop": [{"hooks": [
    {"type": "command", "command": "gate hook agent-stop --base main"}]}]}}
FORMAT_HOOK = {"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]}


def _run(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(check.run, tmp_path, {"README.md": "# app\n", **base}, head)


def _rules(result: CheckResult) -> list[tuple[str, str, str]]:
    return [(f.path, f.rule, f.severity) for f in result.findings]


def _json(data: object) -> str:
    return json.dumps(data, indent=2) + "\n"


def test_a_removed_stop_hook_that_ran_the_gate_is_an_error(tmp_path: Path) -> None:
    result = _run(tmp_path, {".claude/settings.json": _json(GATE_HOOK)},
                  {".claude/settings.json": _json({"hooks": {}})})
    assert _rules(result) == [(".claude/settings.json", "gate-hook-removed", "error")]
    assert "Stop hook that ran the gate (`gate hook agent-stop --base main`)" in \
        result.findings[0].message
    assert result.status == "failed"


def test_a_gate_hook_moved_to_another_event_or_weakened_is_an_error(tmp_path: Path) -> None:
    moved = {"hooks": {"Notification": GATE_HOOK["hooks"]["Stop"]}}
    result = _run(tmp_path, {".claude/settings.json": _json(GATE_HOOK)},
                  {".claude/settings.json": _json(moved)})
    assert ("gate-hook-removed", "error") in [(f.rule, f.severity) for f in result.findings]
    weakened = {"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "gate hook agent-stop --base main || true"}]}]}}
    result = _run(tmp_path / "2", {".claude/settings.json": _json(GATE_HOOK)},
                  {".claude/settings.json": _json(weakened)})
    assert ("gate-hook-removed", "error") in [(f.rule, f.severity) for f in result.findings]


def test_all_hooks_switched_off_keeps_the_gate_hook_but_is_an_error(tmp_path: Path) -> None:
    result = _run(tmp_path, {".claude/settings.json": _json(GATE_HOOK)},
                  {".claude/settings.json": _json({**GATE_HOOK, "disableAllHooks": True})})
    assert [f.rule for f in result.findings if f.severity == "error"] == ["gate-hook-removed"]
    assert "disableAllHooks" in result.findings[0].message


def test_the_gate_hook_in_a_hook_script_removed_is_an_error(tmp_path: Path) -> None:
    script = "#!/bin/sh\nset -e\ngate hook agent-stop --base main\n"
    result = _run(tmp_path, {".claude/hooks/stop.sh": script},
                  {".claude/hooks/stop.sh": "#!/bin/sh\nset -e\nexit 0\n"})
    assert ("gate-hook-removed", "error") in [(f.rule, f.severity) for f in result.findings]
    deleted = _run(tmp_path / "2", {".claude/hooks/stop.sh": script},
                   {".claude/hooks/stop.sh": None})
    assert [(f.rule, f.severity) for f in deleted.findings] == [
        ("agent-file", "warning"), ("gate-hook-removed", "error")]


def test_another_hook_removed_or_changed_names_its_event(tmp_path: Path) -> None:
    base = {"hooks": {"PreToolUse": [FORMAT_HOOK]}}
    result = _run(tmp_path, {".claude/settings.json": _json(base)},
                  {".claude/settings.json": _json({"hooks": {}})})
    assert _rules(result) == [(".claude/settings.json", "hook-removed", "warning")]
    assert result.findings[0].message == "PreToolUse hook `ruff format [Edit]` removed"
    changed = {"hooks": {"PreToolUse": [{**FORMAT_HOOK, "hooks": [
        {"type": "command", "command": "true"}]}]}}
    result = _run(tmp_path / "2", {".claude/settings.json": _json(base)},
                  {".claude/settings.json": _json(changed)})
    assert result.findings[0].message == \
        "PreToolUse hook `ruff format [Edit]` changed, now `true [Edit]`"


def test_a_permission_widened(tmp_path: Path) -> None:
    base = {"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(rm:*)"]}}
    head = {"permissions": {"allow": ["Bash(npm test)", "Bash(*)"], "deny": []}}
    result = _run(tmp_path, {".claude/settings.json": _json(base)},
                  {".claude/settings.json": _json(head)})
    assert [f.message for f in result.findings] == [
        "permissions widened: allow gained `Bash(*)`",
        "permissions widened: deny lost `Bash(rm:*)`"]
    assert {f.severity for f in result.findings} == {"warning"}
    assert result.findings[0].line == 3  # "allow" at head


def test_a_wider_default_mode(tmp_path: Path) -> None:
    head = {"permissions": {"defaultMode": "bypassPermissions"}}
    result = _run(tmp_path, {".claude/settings.json": _json({"permissions": {}})},
                  {".claude/settings.json": _json(head)})
    assert [f.message for f in result.findings] == [
        'permissions widened: permissions.defaultMode (unset) -> "bypassPermissions"']


def test_a_new_mcp_server(tmp_path: Path) -> None:
    base = {"mcpServers": {"gate": {"command": "gate", "args": ["mcp"]}}}
    head = {"mcpServers": {**base["mcpServers"],
                           "shell": {"command": "npx", "args": ["-y", "any-shell-mcp"]}}}
    result = _run(tmp_path, {".mcp.json": _json(base)}, {".mcp.json": _json(head)})
    assert _rules(result) == [(".mcp.json", "mcp-server-added", "warning")]
    assert result.findings[0].message == (
        "MCP server `shell` added: the agent gets its tools; it runs `npx -y any-shell-mcp`")


def test_an_mcp_server_added_in_a_new_file_and_its_command_changed(tmp_path: Path) -> None:
    head = {"mcp_servers": {"db": {"command": "db-mcp"}}}
    result = _run(tmp_path, {}, {".codex/config.toml": '[mcp_servers.db]\ncommand = "db-mcp"\n'})
    assert [f.rule for f in result.findings] == ["mcp-server-added"]
    base = {"mcpServers": {"gate": {"command": "gate", "args": ["mcp"]}}}
    other = {"mcpServers": {"gate": {"command": "./fake-gate", "args": ["mcp"]}}}
    result = _run(tmp_path / "2", {".mcp.json": _json(base)}, {".mcp.json": _json(other)})
    assert [(f.rule, f.severity) for f in result.findings] == [
        ("gate-hook-removed", "error"), ("mcp-server-changed", "warning")]
    assert result.findings[1].message == 'MCP server `gate`: command "gate" -> "./fake-gate"'
    assert head  # the TOML above is the same server, as data


def test_an_instruction_added_is_quoted_at_its_line(tmp_path: Path) -> None:
    base = "# Rules\n\nRun the whole suite before you stop.\n"
    head = "# Rules\n\nRun the whole suite before you stop.\nYou may skip slow tests.\n"
    result = _run(tmp_path, {"CLAUDE.md": base}, {"CLAUDE.md": head})
    assert [(f.path, f.line, f.rule, f.severity, f.message) for f in result.findings] == [
        ("CLAUDE.md", 4, "instructions", "warning",
         'instructions to agents changed: + "You may skip slow tests."')]


def test_an_instruction_weakened_quotes_both_sides(tmp_path: Path) -> None:
    base = "Always run the tests.\n"
    result = _run(tmp_path, {"AGENTS.md": base}, {"AGENTS.md": "Never run the tests.\n"})
    assert [f.message for f in result.findings] == [
        'instructions to agents changed: - "Always run the tests."; + "Never run the tests."']
    assert result.findings[0].severity == "warning"


def test_new_instruction_files_of_other_tools(tmp_path: Path) -> None:
    head = {".cursor/rules/tests.mdc": "Tests are optional.\n",
            ".github/copilot-instructions.md": "Skip flaky tests.\n",
            "src/pkg/CLAUDE.md": "Edit the tests until they pass.\n"}
    result = _run(tmp_path, {}, head)
    assert sorted(f.path for f in result.findings) == sorted(head)
    assert {f.rule for f in result.findings} == {"instructions"}


def test_a_file_imported_by_claude_md_is_read(tmp_path: Path) -> None:
    base = {"CLAUDE.md": "See @docs/agent-rules.md for the rules.\n",
            "docs/agent-rules.md": "Run every test.\n"}
    result = _run(tmp_path, base, {"docs/agent-rules.md": "Run the fast tests only.\n"})
    assert [f.path for f in result.findings] == ["docs/agent-rules.md"]


def test_workflow_permissions_widened_at_the_top_and_for_a_job(tmp_path: Path) -> None:
    base = ("on: pull_request\npermissions:\n  contents: read\njobs:\n  test:\n"
            "    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n")
    head = base.replace("contents: read", "contents: write")
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": head})
    assert [(f.line, f.rule, f.message) for f in result.findings] == [
        (2, "workflow-permissions", "workflow permissions widened: contents: read -> write")]
    job = base.replace("    runs-on:", "    permissions: write-all\n    runs-on:")
    result = _run(tmp_path / "2", {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": job})
    assert [f.message for f in result.findings] == ["job test: permissions widened: write-all"]


def test_write_all_and_a_removed_permissions_block(tmp_path: Path) -> None:
    base = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: make\n"
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": "permissions: write-all\n" + base})
    assert [f.message for f in result.findings] == [
        "workflow permissions widened: write-all"]
    closed = _run(tmp_path / "3", {".github/workflows/ci.yml": "permissions: {}\n" + base},
                  {".github/workflows/ci.yml": "permissions: write-all\n" + base})
    assert [f.message for f in closed.findings] == ["workflow permissions widened: write-all"]
    read = "permissions: read-all\n" + base
    result = _run(tmp_path / "2", {".github/workflows/ci.yml": read},
                  {".github/workflows/ci.yml": base})
    assert [f.rule for f in result.findings] == ["workflow-permissions"]
    assert "default token" in result.findings[0].message


def test_a_trigger_changed_to_pull_request_target(tmp_path: Path) -> None:
    base = ("on:\n  pull_request:\n    branches: [main]\njobs:\n  t:\n    runs-on: x\n"
            "    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n")
    head = base.replace("  pull_request:", "  pull_request_target:")
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": head})
    assert [(f.line, f.rule) for f in result.findings] == [(2, "workflow-trigger")]
    assert result.findings[0].message.startswith("new trigger pull_request_target:")


def test_secrets_reached_by_a_job_that_runs_the_change(tmp_path: Path) -> None:
    base = ("on: pull_request\njobs:\n  t:\n    runs-on: x\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: make test\n")
    head = base.replace("      - run: make test\n",
                        "      - run: make test\n        env:\n"
                        "          TOKEN: ${{ secrets.PYPI_TOKEN }}\n")
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": head})
    assert [f.message for f in result.findings] == [
        "job t runs the pull request's code and now reaches secrets.PYPI_TOKEN"]
    inherit = base + "  call:\n    uses: ./.github/workflows/x.yml\n    secrets: inherit\n"
    result = _run(tmp_path / "2", {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": inherit})
    assert [f.rule for f in result.findings] == ["workflow-secrets"]
    assert "secrets: inherit" in result.findings[0].message


def test_a_head_cannot_narrow_the_list_but_the_base_can_widen_it(tmp_path: Path) -> None:
    """`agent-config-paths` is read from the base: the head's own entry counts next time."""
    from helpers.gitrepo import make_change

    from gate.engine import config
    from gate.engine.context import DiffContext
    from gate.vcs import diff
    base = {".gate.toml": 'agent-config-paths = ["prompts/*.md"]\n',
            "prompts/review.md": "Check every test.\n", "notes/agent.md": "Be careful.\n"}
    head = {".gate.toml": 'agent-config-paths = ["notes/*"]\n',
            "prompts/review.md": "Check some tests.\n", "notes/agent.md": "Be quick.\n"}
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha,
                      config=config.load(str(repo.path), base_sha),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    assert [f.path for f in check.run(ctx).findings] == ["prompts/review.md"]


def test_not_allowed_by_a_comment_in_the_changed_file(tmp_path: Path) -> None:
    """The agent writes the file: a `gate: allow` in it does not turn the finding down."""
    from gate.checks import allow
    head = "<!-- gate: allow agent-config -- fine -->\nSkip the slow tests.\n"
    result = _run(tmp_path, {"CLAUDE.md": "Run all tests.\n"}, {"CLAUDE.md": head})
    assert "agent-config" in allow.NOT_ALLOWED
    assert result.findings and all(f.severity == "warning" for f in result.findings)


# Honest controls: no needs-review.

def test_a_readme_and_docs_edit_is_not_read(tmp_path: Path) -> None:
    result = _run(tmp_path, {"docs/agents.md": "About agents.\n"},
                  {"README.md": "# app\n\nMore.\n", "docs/agents.md": "About AI agents.\n"})
    assert result.status == "passed" and not result.findings


def test_a_typo_fixed_in_claude_md_is_a_notice_at_most(tmp_path: Path) -> None:
    base = "# Rules\n\nRun the whole suite befor you stop, and fix teh lint.\n"
    head = "# Rules\n\nRun the whole suite before you stop, and fix the lint.\n"
    result = _run(tmp_path, {"CLAUDE.md": base}, {"CLAUDE.md": head})
    assert result.status == "passed"
    assert {f.severity for f in result.findings} == {"notice"}


def test_a_typo_fix_that_changes_meaning_is_not_a_typo(tmp_path: Path) -> None:
    for old, new in (("You can skip tests.", "You can't skip tests."),
                     ("Wait 10 seconds.", "Wait 100 seconds."),
                     ("Run all tests.", "Run no tests.")):
        result = _run(tmp_path / old[:5], {"CLAUDE.md": old + "\n"}, {"CLAUDE.md": new + "\n"})
        assert [f.severity for f in result.findings] == ["warning"], new


def test_a_workflow_action_version_bump_is_not_a_finding(tmp_path: Path) -> None:
    base = ("on: pull_request\npermissions:\n  contents: read\njobs:\n  t:\n    runs-on: x\n"
            "    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n"
            "        env:\n          TOKEN: ${{ secrets.CODECOV }}\n")
    head = base.replace("checkout@v4", "checkout@v5")
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": head})
    assert result.status == "passed" and not result.findings


def test_permissions_narrowed_and_a_new_readonly_workflow_are_not_findings(
        tmp_path: Path) -> None:
    base = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: make\n"
    narrowed = "permissions:\n  contents: read\n" + base
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": narrowed,
                   ".github/workflows/lint.yml": narrowed})
    assert not result.findings


def test_a_setting_reformatted_is_not_a_finding(tmp_path: Path) -> None:
    base = {"permissions": {"allow": ["Bash(npm test)"]}, **GATE_HOOK}
    result = _run(tmp_path, {".claude/settings.json": json.dumps(base)},
                  {".claude/settings.json": _json(base)})
    assert not result.findings


def test_a_new_workflow_or_job_that_asks_to_write(tmp_path: Path) -> None:
    base = ("on: push\npermissions:\n  contents: read\njobs:\n  a:\n    runs-on: x\n"
            "    steps:\n      - run: make\n")
    job = base + ("  release:\n    permissions:\n      contents: write\n    runs-on: x\n"
                  "    steps:\n      - run: make release\n")
    result = _run(tmp_path, {".github/workflows/ci.yml": base},
                  {".github/workflows/ci.yml": job,
                   ".github/workflows/new.yml": base.replace("contents: read",
                                                             "contents: write")})
    assert [(f.path, f.message) for f in result.findings] == [
        (".github/workflows/ci.yml",
         "job release: permissions widened: contents: read -> write"),
        (".github/workflows/new.yml", "new workflow with write access: contents")]


def test_the_session_environment_changed_is_a_warning(tmp_path: Path) -> None:
    """PATH in the settings' `env` decides which `gate` the hook runs."""
    head = {**GATE_HOOK, "env": {"PATH": "/tmp/shim:/usr/bin"}, "model": "opus"}
    result = _run(tmp_path, {".claude/settings.json": _json(GATE_HOOK)},
                  {".claude/settings.json": _json(head)})
    assert [(f.rule, f.severity) for f in result.findings] == [
        ("setting-changed", "warning"), ("setting-changed", "notice")]
    assert result.findings[0].message.startswith('setting env.PATH: (unset) -> "/tmp/shim')


RELEASE = ("on:\n  pull_request_target:\n  push:\npermissions:\n  contents: write\njobs:\n"
           "  publish:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
           "      - run: make release\n        env:\n          TOKEN: ${{ secrets.NPM_TOKEN }}\n"
           "      - run: make notes\n      - run: make changelog\n")


def test_a_renamed_workflow_keeps_what_it_had(tmp_path: Path) -> None:
    """A release workflow renamed: its pull_request_target, write permission and secret were
    in the old file; nothing is new."""
    result = _run(tmp_path, {".github/workflows/release.yml": RELEASE},
                  {".github/workflows/release.yml": None,
                   ".github/workflows/publish.yml": RELEASE.replace("make notes", "make n")})
    assert result.findings == ()


def test_a_renamed_job_is_compared_with_its_old_self(tmp_path: Path) -> None:
    base = ("on: pull_request\npermissions:\n  contents: read\njobs:\n  test:\n"
            "    permissions:\n      contents: read\n      pull-requests: read\n"
            "    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: make test\n      - run: make lint\n")
    head = base.replace("  test:\n", "  checks:\n")
    assert _run(tmp_path, {".github/workflows/ci.yml": base},
                {".github/workflows/ci.yml": head}).findings == ()


def test_secrets_in_a_job_that_does_not_check_out_the_change_reach_no_code_of_it(
        tmp_path: Path) -> None:
    base = "on: pull_request\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: echo\n"
    label = base + ("  label:\n    runs-on: x\n    steps:\n      - run: gh pr edit --add-label x\n"
                    "        env:\n          GH_TOKEN: ${{ secrets.BOT_TOKEN }}\n")
    assert _run(tmp_path, {".github/workflows/ci.yml": base},
                {".github/workflows/ci.yml": label}).findings == ()
    tests = label.replace("      - run: gh pr",
                          "      - uses: actions/checkout@v4\n      - run: gh pr")
    assert [f.rule for f in _run(tmp_path / "2", {".github/workflows/ci.yml": base},
                                 {".github/workflows/ci.yml": tests}).findings] == [
        "workflow-secrets"]
