"""Whether a test command runs pytest, and with what: the one recogniser of pytest commands.

A command runs pytest when one of its simple commands (split at `&&`, `||`, `;`, `|`, `&`)
starts pytest directly, after any `NAME=value` assignments: `pytest`, `py.test`, a path
ending in one of them (`.venv/bin/pytest`), `python -m pytest` with any python
(`python3.12`, `/usr/bin/python3`), `coverage run -m pytest`, or any of these after `uv run`,
`poetry run` or `pdm run`. Such a pytest sees PYTEST_ADDOPTS, so it writes the JUnit report
the gate asks for. `tox -e py` and `make test` do not count: what they run is theirs to say,
and tox does not pass PYTEST_ADDOPTS on unless configured to.
"""
from __future__ import annotations

import re
import shlex

_PROGRAM = re.compile(r"^(?:\S*/)?(?:pytest|py\.test)$")
_PYTHON = re.compile(r"^(?:\S*/)?python[\d.]*$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_RUNNERS = (("uv", "run"), ("poetry", "run"), ("pdm", "run"))
_OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;"})


def _words(command: str) -> list[str] | None:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote
        return None


def _simple_commands(command: str) -> list[list[str]]:
    words = _words(command)
    if words is None:
        return []
    commands: list[list[str]] = [[]]
    for word in words:
        if word in _OPERATORS:
            commands.append([])
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def pytest_args(words: list[str]) -> list[str] | None:
    """The arguments pytest gets from one simple command, or None if it does not run pytest."""
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    for runner in _RUNNERS:
        if tuple(words[:2]) == runner:
            words = words[2:]
    if words and _PROGRAM.match(words[0]):
        return words[1:]
    if len(words) >= 3 and _PYTHON.match(words[0]) and words[1:3] == ["-m", "pytest"]:
        return words[3:]
    if words[:4] == ["coverage", "run", "-m", "pytest"]:
        return words[4:]
    return None


def is_pytest(command: str) -> bool:
    """Whether the command runs pytest directly in one of its simple commands."""
    return any(pytest_args(words) is not None for words in _simple_commands(command))


def invocations(command: str) -> list[list[str]]:
    """The arguments of each pytest that the command runs directly, in order."""
    found = (pytest_args(words) for words in _simple_commands(command))
    return [args for args in found if args is not None]


def single_pytest_args(command: str) -> list[str] | None:
    """The arguments, when the whole command is one pytest invocation (no shell operators,
    substitutions or redirections): then test paths can be appended to it."""
    if re.search(r"[;&|<>`$()]", command):
        return None
    commands = _simple_commands(command)
    if len(commands) != 1:
        return None
    return pytest_args(commands[0])
