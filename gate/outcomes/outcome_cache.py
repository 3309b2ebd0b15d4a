"""The base outcomes kept between runs, under the user's cache directory
(`$XDG_CACHE_HOME/gate/base-outcomes`, default `~/.cache/gate/...`; `$GATE_CACHE_DIR/...`
where that is set, as the Action does for its cache step), keyed by everything that decides
the base's outcomes: the base SHA, the install and test commands as they run (detected from
the base's files where the config gives none), the network the tests ran with (`network`: a
test that needs the network fails without it), the tools that run them
(`toolchain.identity`: the installer and its version, the interpreter, the platform, the
gate's version) and the format of the entry. A second change against the same base pays
nothing; a run with other tools or commands runs the base again. Only the gate's own process
reads and writes it; entries are written whole (a temporary file renamed into place), and one
that does not read back is a miss."""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from typing import Any

from gate.execution import toolchain
from gate.outcomes import base_commands

# 2: per-test seconds; 3: the pytest plugins the base loaded; 4: Jest, Vitest, Mocha, unittest
# and nextest name every test; 5: the site hooks the base's install made; 6: pytest's own
# plugins listed too (a list without them would read as the head loading them all); 7: keyed
# by the resolved commands and the tools, a module pytest could not collect named by its file;
# 8: keyed by the network the tests ran with; pytest pinned to the checkout where it has no
# configuration (`--rootdir`: other names for the tests of such a project)
FORMAT = 8


CACHE_DIR = "GATE_CACHE_DIR"  # the gate's own: judged commands do not get it (clean_env)


def directory() -> str:
    own = os.environ.get(CACHE_DIR)
    if own:
        return os.path.join(own, "base-outcomes")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "gate", "base-outcomes")


def made() -> str | None:
    """The directory, made now so that the isolation boundary can keep it read-only to the
    judged code (a test could otherwise plant outcomes that a later run would trust); None
    when it cannot be made (then nothing is kept there either)."""
    where = directory()
    try:
        os.makedirs(where, exist_ok=True)
    except OSError:
        return None
    return where


def key(repo: str, base_sha: str, install: str | None, test: str | None,
        part: str = "", *, network: str = "on") -> str:
    """The entry's name, for the configured commands (None: detected from the base's files)
    and the network the tests run with (`network` in the config: "on" or "off"); `part` is
    what else its outcomes depend on (a shard's share)."""
    install, test = base_commands.resolved(repo, base_sha, install, test)
    text = json.dumps([FORMAT, base_sha, install, test, f"network {network}",
                       toolchain.identity(), *([part] if part else [])])
    return hashlib.sha256(text.encode()).hexdigest()


def load(name: str) -> dict[str, Any] | None:
    try:
        with open(os.path.join(directory(), name + ".json"), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def store(name: str, data: dict[str, Any]) -> None:
    """Write an entry; a cache that cannot be written is no error (the next run pays)."""
    where = directory()
    with contextlib.suppress(OSError):
        os.makedirs(where, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, os.path.join(where, name + ".json"))
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
