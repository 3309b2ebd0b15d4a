"""What tox or nox gives a project's tests, read from its tox configuration or noxfile: the
variables it sets, the names of the caller's environment it lets through (tox: its fixed
list and `passenv`; nox: all), what it installs beyond the project, and the arguments it
gives pytest. The gate reproduces this (docs/how-it-works.md, "tox and nox") rather than
running tox or nox: they would drop the gate's own variables, build their own environment
in the middle of a judged command, and need to be installed where the judged code runs."""
from __future__ import annotations

import dataclasses
import re

# What tox 4 passes of the caller's environment on a POSIX system, whatever `passenv` says
# (tox/tox_env/api.py, python/api.py, python/virtual_env/api.py: `_default_pass_env`).
TOX_PASSES = ("https_proxy", "http_proxy", "no_proxy", "LANG", "LANGUAGE", "CURL_CA_BUNDLE",
              "SSL_CERT_FILE", "CC", "CFLAGS", "CCSHARED", "CXX", "CPPFLAGS",
              "LD_LIBRARY_PATH", "LDFLAGS", "HOME", "FORCE_COLOR", "NO_COLOR", "NETRC",
              "PYTHON_GIL", "TMPDIR", "NIX_LD", "NIX_LD_LIBRARY_PATH", "SSH_AGENT_PID",
              "SSH_AUTH_SOCK", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_SYSROOT_DIR",
              "REQUESTS_CA_BUNDLE", "PIP_*", "VIRTUALENV_*")


@dataclasses.dataclass(frozen=True)
class ToolEnv:
    """One tox environment or nox session that runs the tests."""
    tool: str  # "tox" or "nox"
    name: str
    set_env: dict[str, str] = dataclasses.field(default_factory=dict)
    passes: tuple[str, ...] | None = None  # None: the whole environment (nox)
    deps: tuple[str, ...] = ()  # pip's arguments: requirements, `-r file`, `-c file`
    pytest_args: tuple[str, ...] | None = None  # None: it runs no pytest we could read
    python: str | None = None  # "3.12", where it names one


def selected(command: str, tool: str) -> tuple[str, ...]:
    """The environments (`-e a,b`, `--envs`) or sessions (`-s x`, `--session`) a workflow's
    command selects, where it names them literally."""
    flags = {"tox": r"-e|--envs?", "nox": r"-s|--sessions?|-e"}[tool]
    found = re.search(rf"(?:^|\s)(?:{flags})(?:\s+|=)['\"]?([\w.,\-]+)", command)
    return tuple(n for n in found.group(1).split(",") if n) if found else ()
