"""Agent settings and tool config (JSON, YAML, TOML) compared as data, key by key:
- a hook removed, changed or added, by its event (`Stop`, `PreToolUse`...); a hook that ran the
  gate and is gone (or all hooks switched off) is the worst finding the check has (`error`);
- a permission widened: `allow` gained a rule, `deny` or `ask` lost one, a wider default mode,
  more directories;
- an MCP server added, or its command, arguments, URL or environment changed;
- any other key changed: a notice."""
from __future__ import annotations

import dataclasses
import io
import json
import posixpath
import re
from collections.abc import Callable, Iterator

from ruamel.yaml import YAML

from gate import toml
from gate.checks.agent_config.runs_gate import runs_gate
from gate.checks.check_config import jsonc
from gate.checks.check_config.config_diff import ABSENT, changes, json_line, show_change
from gate.models import Finding, Severity

Data = dict[str, object]
MOST_NOTICES = 10
_SERVERS = re.compile(r"^(mcp_?servers|servers|context_servers)$", re.IGNORECASE)
# Settings that change what runs, or where the tools come from: a warning, not a notice.
SENSITIVE = {
    "env": "the environment of every session: PATH and the like decide which `gate` runs",
    "apiKeyHelper": "a command run for credentials",
    "enabledPlugins": "plugins bring their own hooks, tools and servers",
    "extraKnownMarketplaces": "where plugins come from",
    "enabledMcpjsonServers": "which project MCP servers start without asking",
    "disabledMcpjsonServers": "which project MCP servers are kept off",
    "statusLine": "a command run on every prompt",
    "otelHeadersHelper": "a command run by the session",
    "awsAuthRefresh": "a command run for credentials",
    "chat": "VS Code's agents: which tools and commands run without asking",
    "github": "GitHub Copilot's settings in VS Code",
}
_WIDE_MODES = ("bypassPermissions", "acceptEdits", "dontAsk", "yolo", "auto_edit",
               "never", "full-auto", "danger-full-access")


def load(path: str, text: str) -> Data:
    """The file as plain data; ValueError (or the parser's error) when it is not a mapping."""
    ext = posixpath.splitext(path)[1].lower()
    data: object
    if ext in (".json", ".jsonc"):
        data = jsonc.loads(text)
    elif ext == ".toml":
        data = toml.loads(text)
    else:
        data = YAML(typ="safe", pure=True).load(io.StringIO(text))
    data = json.loads(json.dumps(data, default=str)) if data is not None else {}
    if not isinstance(data, dict):
        raise ValueError("not a mapping")
    return data


def _leaves(node: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every string leaf with its path of keys (list positions left out)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, str(key)))
    elif isinstance(node, list):
        for value in node:
            yield from _leaves(value, path)
    elif isinstance(node, str):
        yield path, node


@dataclasses.dataclass(frozen=True)
class Hook:
    what: str  # its command, prompt or URL: what pairs it with the other side's
    settings: tuple[tuple[str, str], ...]  # everything else, its group's too, in full
    shown: str  # its command with its matcher, as a finding names it


def _hook(hook: Data, group: Data) -> Hook:
    what = str(hook.get("command") or hook.get("prompt") or hook.get("url")
               or json.dumps(hook, sort_keys=True))
    rest = {**{f"group {k}": v for k, v in group.items() if k != "hooks"},
            **{k: v for k, v in hook.items() if k not in ("command", "prompt", "url")}}
    matcher = group.get("matcher", hook.get("matcher"))
    where = f" [{matcher}]" if matcher not in (None, "", "*") else ""
    return Hook(what, tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in rest.items())),
                f"{what}{where}")


def _hooks(data: Data) -> dict[str, list[Hook]]:
    """The hooks of Claude Code and Gemini CLI (event -> groups of a matcher and its hooks),
    of Cursor (event -> hooks), each with every setting it has: a timeout, a matcher,
    continue-on-error, whatever the tool reads."""
    table = data.get("hooks")
    out: dict[str, list[Hook]] = {}
    for event, groups in (table.items() if isinstance(table, dict) else ()):
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, dict):
                continue
            inner = group.get("hooks")
            members = inner if isinstance(inner, list) else [group]
            outer = group if isinstance(inner, list) else {}
            out.setdefault(str(event), []).extend(
                _hook(h, outer) for h in members if isinstance(h, dict))
    return out


def _settings_changed(old: Hook, new: Hook) -> str:
    a, b = dict(old.settings), dict(new.settings)

    def value(side: dict[str, str], key: str) -> object:
        return json.loads(side[key]) if key in side else ABSENT

    return ", ".join(f"{k} {show_change(value(a, k), value(b, k))}"
                     for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))


def _servers(data: Data) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        if _SERVERS.match(str(key)) and isinstance(value, dict):
            out.update({str(k): v for k, v in value.items()})
    mcp = data.get("mcp")
    if isinstance(mcp, dict):
        out.update(_servers(mcp))
    return out


def _permissions(data: Data) -> dict[str, object]:
    table = data.get("permissions")
    return table if isinstance(table, dict) else {}


def _as_dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {"value": value}


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


class _Findings:
    def __init__(self, path: str, text: str) -> None:
        self.path, self.text, self.found = path, text, list[Finding]()

    def add(self, keys: tuple[str, ...], rule: str, severity: Severity, message: str) -> None:
        line = json_line(self.text, keys) if self.text else 1
        self.found.append(Finding(path=self.path, line=line, rule=rule, severity=severity,
                                  message=message))


_COMMAND_KEYS = frozenset({"command", "cmd", "run", "notify", "script", "args"})


def _commands(data: Data) -> Iterator[tuple[tuple[str, ...], str]]:
    """The string leaves that are commands: under `hooks`, or under a command-like key."""
    for keys, value in _leaves(data):
        if "hooks" in keys or (keys and keys[-1] in _COMMAND_KEYS):
            yield keys, value


def _gate_hooks(old: Data, new: Data, out: _Findings) -> None:
    """A command that ran the gate at the base, gone from its key path at head."""
    kept = set(_commands(new))
    all_off = new.get("disableAllHooks") is True and old.get("disableAllHooks") is not True
    for keys, command in dict.fromkeys(_commands(old)):
        if not runs_gate(command) or ((keys, command) in kept and not all_off):
            continue
        how = "all hooks switched off (disableAllHooks)" if (keys, command) in kept \
            else "removed or changed"
        if keys[:1] == ("hooks",) and len(keys) > 1:
            what = f"the {keys[1]} hook that ran the gate"
        else:
            what = f"`{'.'.join(keys)}`, which ran the gate"
        out.add(keys[:2], "gate-hook-removed", "error",
                f"{what} (`{_cut(command)}`) {how}: the agent's work is no longer checked "
                "where it was")


def _hook_changes(old: Data, new: Data, out: _Findings) -> None:
    before, after = _hooks(old), _hooks(new)
    for event in sorted(set(before) | set(after)):
        gone = [h for h in before.get(event, []) if h not in after.get(event, [])]
        came = [h for h in after.get(event, []) if h not in before.get(event, [])]
        for hook in list(gone):  # the same command, its settings changed
            same = next((h for h in came if h.what == hook.what), None)
            if same is None:
                continue
            gone.remove(hook)
            came.remove(same)
            gate = runs_gate(hook.what)
            out.add(("hooks", event), "gate-hook-changed" if gate else "hook-changed",
                    "error" if gate else "warning",
                    f"{event} hook `{_cut(hook.what)}` kept, its settings changed: "
                    f"{_settings_changed(hook, same)}"
                    + (": the gate's hook may no longer check the agent's work" if gate else ""))
        for i, hook in enumerate(gone):
            if runs_gate(hook.what):
                continue  # said by _gate_hooks, as an error
            to = f", now `{_cut(came[i].shown)}`" if i < len(came) else ""
            out.add(("hooks", event), "hook-removed" if not to else "hook-changed", "warning",
                    f"{event} hook `{_cut(hook.shown)}` {'changed' if to else 'removed'}{to}")
        for hook in came[len(gone):]:
            out.add(("hooks", event), "hook-added", "warning",
                    f"{event} hook added: runs `{_cut(hook.shown)}`")
    if new.get("disableAllHooks") is True and old.get("disableAllHooks") is not True \
            and before:
        out.add(("disableAllHooks",), "hook-removed", "warning",
                "disableAllHooks turned on: every hook is switched off")


def _permission_changes(old: Data, new: Data, out: _Findings) -> None:
    before, after = _permissions(old), _permissions(new)
    for key, grows in (("allow", True), ("additionalDirectories", True),
                       ("deny", False), ("ask", False)):
        a, b = _strings(before.get(key)), _strings(after.get(key))
        widened = [r for r in b if r not in a] if grows else [r for r in a if r not in b]
        if widened:
            verb = "gained" if grows else "lost"
            out.add(("permissions", key), "permission-widened", "warning",
                    f"permissions widened: {key} {verb} "
                    + ", ".join(f"`{_cut(r, 60)}`" for r in widened[:5])
                    + (f" and {len(widened) - 5} more" if len(widened) > 5 else ""))
    for keys, value_old, value_new in _modes(old, new):
        if value_new in _WIDE_MODES or value_new is True:
            out.add(keys, "permission-widened", "warning",
                    f"permissions widened: {'.'.join(keys)} {show_change(value_old, value_new)}")


def _modes(old: Data, new: Data) -> Iterator[tuple[tuple[str, ...], object, object]]:
    for keys in (("permissions", "defaultMode"), ("approval_policy",), ("sandbox_mode",),
                 ("approvalMode",), ("yolo",), ("enableAllProjectMcpServers",),
                 ("dangerouslySkipPermissions",), ("yes-always",),
                 ("chat.tools.autoApprove",), ("chat.tools.global.autoApprove",)):
        a, b = _dig(old, keys), _dig(new, keys)
        if a != b:
            yield keys, a, b


def _dig(data: Data, keys: tuple[str, ...]) -> object:
    node: object = data
    for key in keys:
        node = node.get(key, ABSENT) if isinstance(node, dict) else ABSENT
    return node


def _server_changes(old: Data, new: Data, out: _Findings) -> None:
    before, after = _servers(old), _servers(new)
    for name in sorted(set(after) - set(before)):
        spec = _as_dict(after[name])
        runs = " ".join(str(p) for p in [spec.get("command") or spec.get("url") or "",
                                           *_strings(spec.get("args"))] if p)
        out.add(("mcpServers", name), "mcp-server-added", "warning",
                f"MCP server `{name}` added: the agent gets its tools"
                + (f"; it runs `{_cut(runs)}`" if runs else ""))
    for name in sorted(set(after) & set(before)):
        a, b = _as_dict(before[name]), _as_dict(after[name])
        for key in ("command", "args", "url", "env", "cwd", "type", "headers"):
            was, now = a.get(key, ABSENT), b.get(key, ABSENT)
            if was != now:
                out.add(("mcpServers", name, key), "mcp-server-changed", "warning",
                        f"MCP server `{name}`: {key} {show_change(was, now)}")
    for name in sorted(set(before) - set(after)):
        out.add(("mcpServers",), "mcp-server-removed", "notice",
                f"MCP server `{name}` removed")


_SAID: tuple[Callable[[Data, Data, _Findings], None], ...] = (
    _gate_hooks, _hook_changes, _permission_changes, _server_changes)


def _said(key: str, widened: set[str]) -> bool:
    """Whether a changed key is one the rules above already read."""
    top = key.split(".", 1)[0]
    return top in ("hooks", "disableAllHooks", "mcp") or bool(_SERVERS.match(top)) or \
        key in widened or (top == "permissions" and key.split(".")[1:2] != ["defaultMode"])


def compare(path: str, old: Data, new: Data, head_text: str) -> list[Finding]:
    out = _Findings(path, head_text)
    for rule in _SAID:
        rule(old, new, out)
    widened = {".".join(k) for k, _, b in _modes(old, new) if b in _WIDE_MODES or b is True}
    rest = [c for c in changes(old, new) if not _said(c.key, widened)]
    for change in rest[:MOST_NOTICES]:
        top = change.key.split(".", 1)[0]
        out.add(tuple(change.key.split(".")), "setting-changed",
                "warning" if top in SENSITIVE else "notice",
                f"setting {change.key}: {show_change(change.old, change.new)}"
                + (f" ({SENSITIVE[top]})" if top in SENSITIVE else ""))
    if len(rest) > MOST_NOTICES:
        out.add((), "setting-changed", "notice",
                f"and {len(rest) - MOST_NOTICES} more setting(s) changed")
    return out.found
