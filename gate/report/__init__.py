"""Reporters: each turns a finished `Report` into one format (text, JSON, GitHub workflow
commands, markdown, SARIF) or, in `terminal`, a hook's lines. They only read the records."""
