"""agent-config: what steers the agents (instructions, settings, MCP servers, hooks) and what
the project's workflows may do, read as data. `check.py` is the check's module."""
