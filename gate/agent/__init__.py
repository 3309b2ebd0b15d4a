"""The agent's loop: `gate submit` (the working tree committed to a branch, judged by the whole
gate, answered in bounded text for a model, attempts capped per branch and base), the same as
MCP tools (`gate mcp`, the extra `mcp`), and the Claude Code `Stop` hook (`gate hook
agent-stop`)."""
